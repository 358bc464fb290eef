/// <reference types="vite/client" />
// The stylesheet of form dialogs (sections, grids, the refusal callout), loaded with the screens
// that use them.
import './form.css';
