/// <reference types="vite/client" />
// The stylesheet of the vulnerability screens, loaded with the (lazy) screens that use it. The
// reference lets every tsconfig that reaches the screens (tests, cli) type the CSS import.
import '../../common/styles.ts';
import './bug.css';
