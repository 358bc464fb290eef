import type { Extractor } from '../../model.ts';
import { cargoAuditableExtractor } from './cargo-auditable.ts';
import { dotnetAssemblyExtractor } from './dotnet.ts';
import { nugetPackageExtractor } from './nuget-packages.ts';
import { versionStringExtractor } from './version-strings.ts';

export const extractors: Extractor[] = [versionStringExtractor, cargoAuditableExtractor, dotnetAssemblyExtractor, nugetPackageExtractor];
