/// <reference types="vite/client" />
// The dashboard's stylesheet: common/'s (statistic tiles, chart grid, tables), loaded with the
// (lazy) screen. The reference lets every tsconfig that reaches it (tests, cli) type the import.
import '../../common/styles.ts';
