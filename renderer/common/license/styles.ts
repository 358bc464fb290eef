/// <reference types="vite/client" />
// The licence table's stylesheet.
import './license.css';
