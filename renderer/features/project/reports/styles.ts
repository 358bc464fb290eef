/// <reference types="vite/client" />
// The stylesheets of the report screens: the project screens' (common/'s filter bar, table and
// pager, the batch bar) and the report additions.
import '../tasks/styles.ts';
import './report.css';
