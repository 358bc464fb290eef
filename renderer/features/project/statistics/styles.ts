/// <reference types="vite/client" />
// The statistics screen's stylesheet: common/'s (statistic tiles, chart grid, tables) and its own,
// loaded with the (lazy) screen.
import '../../../common/styles.ts';
import './statistics.css';
