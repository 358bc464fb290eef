/// <reference types="vite/client" />
// The stylesheet of the 角色管理 screen.
import '../../../common/styles.ts';
import '../../../common/form/styles.ts';
import './role.css';
