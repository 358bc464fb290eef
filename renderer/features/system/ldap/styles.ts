/// <reference types="vite/client" />
// The stylesheet of the LDAP集成 screen.
import '../../../common/styles.ts';
import '../../../common/form/styles.ts';
import './ldap.css';
