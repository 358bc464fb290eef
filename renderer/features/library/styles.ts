/// <reference types="vite/client" />
// The stylesheet of the report library and offline review screens, loaded with the (lazy) screens.
import './library.css';
