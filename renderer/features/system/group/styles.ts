/// <reference types="vite/client" />
// The stylesheet of the 组织管理 screens (the tree beside the chosen group, the pickers).
import '../../../common/styles.ts';
import '../../../common/form/styles.ts';
import './group.css';
