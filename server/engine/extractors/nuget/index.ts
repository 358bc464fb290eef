import type { Extractor } from '../../model.ts';
import { nugetAssetsExtractor } from './assets.ts';
import { packagesConfigExtractor } from './config.ts';
import { dotnetDepsExtractor } from './deps.ts';
import { nugetLockExtractor } from './lock.ts';
import { msbuildProjectExtractor, packagesPropsExtractor } from './msbuild.ts';
import { paketLockExtractor } from './paket.ts';

export const extractors: Extractor[] = [nugetLockExtractor, packagesConfigExtractor, msbuildProjectExtractor, packagesPropsExtractor, nugetAssetsExtractor, dotnetDepsExtractor, paketLockExtractor];
