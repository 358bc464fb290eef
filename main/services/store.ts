// The one interface the profile service needs from persistence. In Electron it is an
// `electron-store` instance (main/electron/store.ts); in the web host it is a `conf` instance
// whose `cwd` is the data dir. Both write the same JSON file format, so a data dir can be shared
// between the desktop app and the web host. Tests use a `conf` store too, or the in-memory one of
// tests/support/memory-store.ts.
import Conf from 'conf';
import { makePrivateDirSync } from './private-files.ts';

export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** File name (without `.json`) of the profile store, the same in Electron and the web host. */
export const PROFILE_STORE_NAME = 'profiles';

/** A `conf` store at `<dir>/<name>.json`, readable only by the owner. */
export function createConfStore(dir: string, name: string = PROFILE_STORE_NAME): KeyValueStore {
  // conf would create a missing folder with the umask's mode.
  makePrivateDirSync(dir);
  return new Conf<Record<string, unknown>>({ cwd: dir, configName: name, configFileMode: 0o600, accessPropertiesByDotNotation: false });
}
