/// <reference types="vite/client" />
// The stylesheets of the report screens: the list styles of the vulnerability and project screens
// (filter bar, table, pager, batch bar) and the report additions.
import '../tasks/styles.ts';
import './report.css';
