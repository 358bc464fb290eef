// Local storage used by the renderer: the product selector and the batch-reanalysis selections.
// Nothing secret is ever stored here (credentials stay in main and the OS keychain).
import { PRODUCT, isProduct, type Product } from '../../contract/enums.ts';

export const STORAGE_KEYS = {
  /** Product selector 1 | 2 | 3 (spec doc 1 §1). Survives an expired session. */
  product: 'cairn.product',
  /** Tasks selected on /project/taskList for batch reanalysis. */
  batchTaskSelection: 'cairn.batch.taskSelection',
  /** Subjects / versions selected on /project/analysis for batch reanalysis. */
  batchAnalysisSelection: 'cairn.batch.analysisSelection',
} as const;

/** Stored batch selections, cleared when the user leaves the batch-reanalysis screens (spec §2). */
export const BATCH_SELECTION_KEYS: readonly string[] = [STORAGE_KEYS.batchTaskSelection, STORAGE_KEYS.batchAnalysisSelection];

/** Kept when the session expires: spec §8 keeps "the version and login flags"; ours is the product selector. */
export const KEEP_ON_SESSION_END: readonly string[] = [STORAGE_KEYS.product];

function store(): Storage | null {
  try {
    const s = (globalThis as { localStorage?: Storage }).localStorage;
    return s ?? null;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    store()?.setItem(key, value);
  } catch {}
}

export function removeItems(keys: readonly string[]): void {
  const s = store();
  if (!s) return;
  for (const key of keys) {
    try {
      s.removeItem(key);
    } catch {}
  }
}

/** Clears local storage except the given keys (spec §8, envelope code 3). */
export function clearStorageExcept(keep: readonly string[]): void {
  const s = store();
  if (!s) return;
  try {
    const doomed: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const key = s.key(i);
      if (key !== null && !keep.includes(key)) doomed.push(key);
    }
    for (const key of doomed) s.removeItem(key);
  } catch {}
}

export type { Product };
export const PRODUCTS: readonly Product[] = [PRODUCT.SOURCE, PRODUCT.BINARY, PRODUCT.PRIVATE_SERVICE];

/** The stored product selector; 1 (source) when absent or invalid. */
export function readProduct(): Product {
  const raw = Number(readItem(STORAGE_KEYS.product));
  return isProduct(raw) ? raw : PRODUCT.SOURCE;
}
