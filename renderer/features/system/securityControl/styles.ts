/// <reference types="vite/client" />
// The stylesheet of the 安全管控 screen.
import '../../../common/styles.ts';
import '../../../common/form/styles.ts';
import '../../../common/list/styles.ts';
import './security.css';
