// A counter per database handle, moved by every knowledge-base write of this process, so the
// matcher's index cache (index-cache.ts) re-reads its stamp at once after a local import or edit
// instead of waiting out its few seconds of tolerance. Other processes' writes are still found
// by the stamp itself.
const versions = new WeakMap<object, number>();

export function advisoriesChanged(db: object): void {
  versions.set(db, (versions.get(db) ?? 0) + 1);
}

export function advisoriesVersion(db: object): number {
  return versions.get(db) ?? 0;
}
