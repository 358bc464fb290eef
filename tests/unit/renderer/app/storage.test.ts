// Local storage of the renderer: the product selector and the batch selections.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BATCH_SELECTION_KEYS, KEEP_ON_SESSION_END, STORAGE_KEYS, clearStorageExcept, readProduct } from '../../../../renderer/app/storage.ts';
import { clearBatchSelections } from '../../../../renderer/app/store.ts';
import { installMemoryStorage, type MemoryStorage } from '../support.ts';

describe('renderer storage', () => {
  let storage: MemoryStorage;
  let restore: () => void;
  beforeEach(() => {
    ({ storage, restore } = installMemoryStorage());
  });
  afterEach(() => restore());

  it('reads the product selector, 1 when absent or invalid', () => {
    expect(readProduct()).toBe(1);
    storage.setItem(STORAGE_KEYS.product, '3');
    expect(readProduct()).toBe(3);
    storage.setItem(STORAGE_KEYS.product, '9');
    expect(readProduct()).toBe(1);
  });

  it('clears the batch selections only', () => {
    for (const k of BATCH_SELECTION_KEYS) storage.setItem(k, '[1]');
    storage.setItem(STORAGE_KEYS.product, '2');
    clearBatchSelections();
    for (const k of BATCH_SELECTION_KEYS) expect(storage.getItem(k)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.product)).toBe('2');
  });

  it('the end of a session keeps the product selector and nothing else', () => {
    storage.setItem(STORAGE_KEYS.product, '2');
    storage.setItem('a', '1');
    storage.setItem('b', '2');
    clearStorageExcept(KEEP_ON_SESSION_END);
    expect(storage.length).toBe(1);
    expect(storage.getItem(STORAGE_KEYS.product)).toBe('2');
  });
});
