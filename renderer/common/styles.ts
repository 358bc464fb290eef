/// <reference types="vite/client" />
// Every stylesheet of common/ (lists, forms, details, tiles), for the feature stylesheets that use
// their classes in screens of their own. The reference lets every tsconfig that reaches the
// screens (tests, cli) type the CSS imports.
import './common.css';
import './list/styles.ts';
import './form/styles.ts';
import './vulnerability/styles.ts';
import './license/styles.ts';
