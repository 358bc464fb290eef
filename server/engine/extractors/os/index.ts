// Operating-system packages of an unpacked root filesystem: dpkg (and distroless status.d, opkg),
// apk, rpm (SQLite, BerkeleyDB, NDB) and pacman (var/lib/pacman/local) databases, with the
// distribution from os-release, in the registry of
// server/engine/extractors/index.ts.
import type { Extractor } from '../../model.ts';
import { apkExtractor } from './apk.ts';
import { dpkgExtractor, opkgExtractor } from './dpkg.ts';
import { pacmanExtractor } from './pacman.ts';
import { extractors as rpm } from './rpm/index.ts';

export { apkExtractor, apkLicense, parseApkInstalled } from './apk.ts';
export { dep5License, dep5Licenses } from './copyright.ts';
export { parseStanzas } from './deb822.ts';
export { dpkgExtractor, opkgExtractor, parseDpkgStatus, relationGroups } from './dpkg.ts';
export { alpmVercmp, pacmanExtractor, pacmanLicense, parsePacmanDesc, parsePacmanFiles, readPacmanDatabase } from './pacman.ts';
export { distroQualifier, findDistribution, parseOsRelease } from './os-release.ts';

export const extractors: Extractor[] = [dpkgExtractor, opkgExtractor, apkExtractor, ...rpm, pacmanExtractor];
