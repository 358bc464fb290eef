// electron-store in userData: the same JSON file format as the `conf` store the web host uses.
import ElectronStore from 'electron-store';
import { PROFILE_STORE_NAME, type KeyValueStore } from '../services/store.ts';

export function createElectronStore(): KeyValueStore {
  return new ElectronStore<Record<string, unknown>>({ name: PROFILE_STORE_NAME, configFileMode: 0o600, accessPropertiesByDotNotation: false });
}
