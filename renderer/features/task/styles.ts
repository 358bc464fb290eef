/// <reference types="vite/client" />
// The stylesheets of the result screens, loaded with the (lazy) screens: the shared list/detail
// styles of the vulnerability screens, Blueprint's table (Table2) and our own.
import '../bug/styles.ts';
import '@blueprintjs/table/lib/css/table.css';
import './task.css';
