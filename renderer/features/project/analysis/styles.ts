/// <reference types="vite/client" />
// The stylesheets of the result screens, loaded with the (lazy) screens: the shared list and
// detail styles of common/, Blueprint's table (Table2) and our own.
import '../../../common/styles.ts';
import '@blueprintjs/table/lib/css/table.css';
import './analysis.css';
