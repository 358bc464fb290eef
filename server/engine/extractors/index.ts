// Every extractor the scan offers files to. Each ecosystem folder exports its own list.
import type { Extractor } from '../model.ts';
import { extractors as bazel } from './bazel/index.ts';
import { extractors as brew } from './brew/index.ts';
import { extractors as bun } from './bun/index.ts';
import { extractors as cargo } from './cargo/index.ts';
import { extractors as cocoapods } from './cocoapods/index.ts';
import { extractors as composer } from './composer/index.ts';
import { extractors as conan } from './conan/index.ts';
import { extractors as conda } from './conda/index.ts';
import { extractors as cpan } from './cpan/index.ts';
import { extractors as cran } from './cran/index.ts';
import { extractors as excel } from './excel/extractor.ts';
import { extractors as githubactions } from './githubactions/index.ts';
import { extractors as golang } from './golang/index.ts';
import { extractors as gradle } from './gradle/index.ts';
import { extractors as hackage } from './hackage/index.ts';
import { extractors as hex } from './hex/index.ts';
import { extractors as jenkins } from './jenkins/index.ts';
import { extractors as julia } from './julia/index.ts';
import { extractors as luarocks } from './luarocks/index.ts';
import { extractors as maven } from './maven/index.ts';
import { extractors as native } from './native/index.ts';
import { extractors as nix } from './nix/index.ts';
import { extractors as npm } from './npm/index.ts';
import { extractors as nuget } from './nuget/index.ts';
import { extractors as opam } from './opam/index.ts';
import { extractors as os } from './os/index.ts';
import { extractors as pear } from './pear/index.ts';
import { extractors as pkgfiles } from './pkgfiles/index.ts';
import { extractors as pnpm } from './pnpm/index.ts';
import { extractors as pub } from './pub/index.ts';
import { extractors as python } from './python/index.ts';
import { extractors as ruby } from './ruby/index.ts';
import { extractors as sbom } from './sbom/index.ts';
import { extractors as swift } from './swift/index.ts';
import { extractors as terraform } from './terraform/index.ts';
import { extractors as wordpress } from './wordpress/index.ts';
import { extractors as yarn } from './yarn/index.ts';

/** Each ecosystem's or format's own extractors, by folder name. */
export const extractorFamilies = {
  bun, cargo, cocoapods, composer, conan, conda, excel, golang, gradle, hex, maven,
  npm, nuget, os, pnpm, pub, python, ruby, sbom, swift, yarn,
  cpan, cran, githubactions, hackage, julia, terraform,
  native, pkgfiles,
  luarocks,
  jenkins,
  bazel,
  opam,
  nix,
  brew,
  pear,
  wordpress,
} as const satisfies Record<string, readonly Extractor[]>;

export const allExtractors: readonly Extractor[] = Object.values(extractorFamilies).flat();

/** What an analysis that found no manifest, lockfile or SBOM tells the user: every file the extractors read. */
export function noManifestMessage(): string {
  const names = [...new Set(allExtractors.flatMap((e) => e.reads))];
  return `未识别到可分析的组件清单：Cairn 读取以下清单、锁文件与 SBOM：${names.join('、')}`;
}
