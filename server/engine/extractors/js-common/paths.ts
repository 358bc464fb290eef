// Root-relative path helpers (always `/`-separated).
export const dirOf = (p: string): string => {
  const cut = p.lastIndexOf('/');
  return cut < 0 ? '' : p.slice(0, cut);
};
export const baseOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
export const joinPath = (...parts: string[]): string => {
  const out: string[] = [];
  for (const part of parts.join('/').split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
};

/** Runs fn over items with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
