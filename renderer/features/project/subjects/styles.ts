/// <reference types="vite/client" />
// The stylesheets of the subject screens: the shared list styles plus the subject additions.
import '../../../common/styles.ts';
import './subject.css';
