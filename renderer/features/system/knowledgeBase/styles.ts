/// <reference types="vite/client" />
// The stylesheet of the knowledge-base administration screens.
import '../../../common/styles.ts';
import './knowledge.css';
