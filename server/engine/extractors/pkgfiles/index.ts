// Package files as shipped: Debian .deb/.udeb and opkg .ipk, .rpm, Alpine .apk, Python wheels and
// eggs, npm tarballs (what `npm pack` writes). Each file is one component, identified from the
// metadata its package tool wrote, with evidence and CONFIDENCE.METADATA, in the registry of
// server/engine/extractors/index.ts.
import type { Extractor } from '../../model.ts';
import { apkFileExtractor } from './apk.ts';
import { debFileExtractor } from './deb.ts';
import { npmTarballExtractor } from './npm-tarball.ts';
import { rpmFileExtractor } from './rpm.ts';
import { eggExtractor, wheelExtractor } from './wheel.ts';

export { apkFileExtractor, parsePkgInfo } from './apk.ts';
export { debFileExtractor, parseControl } from './deb.ts';
export { npmTarballExtractor } from './npm-tarball.ts';
export { readRpmFile, rpmFileExtractor } from './rpm.ts';
export { eggExtractor, eggNameVersion, wheelExtractor, wheelNameVersion } from './wheel.ts';

export const extractors: Extractor[] = [debFileExtractor, rpmFileExtractor, apkFileExtractor, wheelExtractor, eggExtractor, npmTarballExtractor];
