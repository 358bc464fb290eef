/// <reference types="vite/client" />
// The stylesheets of the project screens: the vulnerability screens' (tables, filter bar, pager,
// form grid) and the project additions.
import '../bug/styles.ts';
import './project.css';
