/// <reference types="vite/client" />
// The stylesheets of the project screens: common/'s (tables, filter bar, pager, form grid) and the
// project additions.
import '../../../common/styles.ts';
import './project.css';
