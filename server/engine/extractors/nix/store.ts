// Nix store paths: every entry of a `nix/store` folder (in an image, or a folder that holds one) is
// named `<hash>-<name>-<version>[-<output>]` — `h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin`.
// Name and version split as Nix's own builtins.parseDrvName does: the version starts at the first
// dash not followed by a letter (`perl5.34.1-TimeDate-2.33` is perl5.34.1-TimeDate 2.33,
// `libedit-20210910-3.1` libedit 20210910-3.1), `unstable-YYYY-MM-DD` being a version too; as
// syft's nix store cataloger does, a last dash-part without a digit is the output (`bin`, `dev`,
// `man`, `lib`). Derivations (`.drv`), sources, patches and scripts the build read, and entries
// with no version (`-source`, `base-system`) are no installed package.
// purl: pkg:nix/<name>@<version>?hash=<hash>&output=<output> (syft's, the type being proposed).
// The store is one target, read once from its listing whichever of its files the scan meets first.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE } from '../../model.ts';
import { purlOf } from '../../purl.ts';

/** A file in (or an entry of) a nix/store folder; the entry's name is checked when the store is listed. */
const STORE_ENTRY = /^(.*?(?:^|\/)nix\/store)\/([^/]+-[^/]+)(?:\/|$)/;
/** Nix's base-32 alphabet (no e, o, u, t): store hashes are 32 of these. */
const ENTRY_NAME = /^([0-9abcdfghijklmnpqrsvwxyz]{32})-(.+)$/;
/** Build inputs kept in the store as files: derivations, source archives, patches, scripts. */
const NOT_A_PACKAGE = /\.(?:drv|tar|tar\.\w+|tgz|tbz2?|txz|zip|gem|crate|whl|jar|patch|diff|sh|bash|nix|lock|json|toml|ya?ml|cabal|el|pl|py|c|h|patch\.gz)$/i;

export interface StorePath { hash: string; name: string; version: string; output: string }

/** Parses a store entry name (or path); null for build inputs and entries without a version. */
export function parseStorePath(source: string): StorePath | null {
  const trimmed = source.replace(/\/+$/, '');
  const entry = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  const m = ENTRY_NAME.exec(entry);
  if (!m || NOT_A_PACKAGE.test(entry)) return null;
  const [, hash, drvName] = m as unknown as [string, string, string];
  const unstable = /-(unstable-\d{4}-\d{2}-\d{2}.*)$/.exec(drvName);
  const cut = unstable ? unstable.index : drvName.search(/-[^A-Za-z]/);
  if (cut <= 0) return null;
  const name = drvName.slice(0, cut);
  let version = drvName.slice(cut + 1);
  let output = '';
  const parts = version.split('-');
  if (parts.length > 1 && !/\d/.test(parts.at(-1)!)) {
    output = parts.at(-1)!;
    version = parts.slice(0, -1).join('-');
  }
  if (!version || !/\d/.test(version)) return null;
  return { hash, name, version, output };
}

export function nixPurl(p: StorePath): string {
  const qualifiers: Record<string, string> = { hash: p.hash };
  if (p.output) qualifiers.output = p.output;
  return purlOf('nix', { name: p.name, version: p.version, qualifiers });
}

/** The store's target from its entry names (`store` is the root-relative path of the nix/store folder). */
export function storeTarget(store: string, entries: readonly string[]): Target {
  const components: Component[] = [];
  const seen = new Set<string>();
  for (const entry of [...entries].sort()) {
    const parsed = parseStorePath(entry);
    if (!parsed) continue;
    const purl = nixPurl(parsed);
    if (seen.has(purl)) continue;
    seen.add(purl);
    const file = `${store}/${entry}`;
    components.push({
      purl, ecosystem: 'nix', name: parsed.name, version: parsed.version, direct: true, scope: 'runtime',
      locations: [{ file }], licenses: [], dependsOn: [],
      evidence: [{ file, rule: 'Nix store 路径', text: entry }], confidence: CONFIDENCE.MANIFEST,
    });
  }
  return { file: store, type: 'nix-store', ecosystem: 'nix', project: null, roots: components.map((c) => c.purl), components };
}

/** Stores already read in a scan (by its context): the first file of a store met reads the whole listing. */
const readStores = new WeakMap<ExtractContext, Set<string>>();

export const nixStoreExtractor: Extractor = {
  name: 'nix-store',
  ecosystem: 'nix',
  reads: ['nix/store/<hash>-<name>-<version>'],
  matches: (p) => STORE_ENTRY.test(p),
  async extract(file: InputFile, ctx: ExtractContext) {
    const store = STORE_ENTRY.exec(file.path)![1]!;
    let done = readStores.get(ctx);
    if (!done) { done = new Set(); readStores.set(ctx, done); }
    if (done.has(store)) return [];
    done.add(store);
    const target = storeTarget(store, await ctx.list(store));
    return target.components.length > 0 ? [target] : [];
  },
};
