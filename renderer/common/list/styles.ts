/// <reference types="vite/client" />
// The stylesheet of the list pieces (filter bar, tables, pager, level tags), loaded with the (lazy)
// screens that use them. The reference lets every tsconfig that reaches them (tests, cli) type the
// CSS import.
import './list.css';
