/// <reference types="vite/client" />
// The stylesheets of the licence screens: common/'s (tables, filter bar, detail fields) and the
// licence additions.
import '../../common/styles.ts';
import './license.css';
