/// <reference types="vite/client" />
// The stylesheets of the licence screens: the vulnerability screens' (tables, filter bar, detail
// fields) and the licence additions.
import '../bug/styles.ts';
import './license.css';
