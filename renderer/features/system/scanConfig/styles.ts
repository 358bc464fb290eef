/// <reference types="vite/client" />
// The stylesheet of the 扫描配置 screen.
import '../../../common/styles.ts';
import '../../../common/form/styles.ts';
import './scan-config.css';
