// An in-memory KeyValueStore (main/services/store.ts) for the main-process tests: what the profile
// and session services persist, without a file.
import type { KeyValueStore } from '../../main/services/store.ts';

export function createMemoryStore(initial: Record<string, unknown> = {}): KeyValueStore & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = structuredClone(initial);
  return {
    data,
    get: (key) => structuredClone(data[key]),
    set: (key, value) => {
      data[key] = structuredClone(value);
    },
  };
}
