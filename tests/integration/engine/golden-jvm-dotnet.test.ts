// trivy's goldens for the JVM and .NET fixtures. nuget, dotnet and packagesprops list packages:
// scored by expectGolden (package F1 >= 0.98, edge F1 >= 0.95). pom and gradle goldens only
// list vulnerabilities: every vulnerable package must be found with its installed version.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExtractors, scanTree } from '../../../server/engine/index.ts';
import { expectGolden } from '../../support/golden-check.ts';
import { TRIVY } from '../../support/golden.ts';

const { gradle, maven, nuget } = (await loadExtractors()).families;

const all = [...maven, ...gradle, ...nuget];

describe('trivy goldens: NuGet and .NET', () => {
  for (const repo of ['nuget', 'dotnet', 'packagesprops']) {
    it(repo, async () => {
      await expectGolden({ golden: `${repo}.json.golden`, repo }, all);
    });
  }
});

describe('trivy goldens: Maven and Gradle (vulnerable packages)', () => {
  for (const repo of ['pom', 'gradle']) {
    it(repo, async () => {
      const golden = JSON.parse(readFileSync(path.join(TRIVY, 'golden', `${repo}.json.golden`), 'utf8')) as {
        Results: Array<{ Target: string; Vulnerabilities?: Array<{ VulnerabilityID: string; InstalledVersion: string; PkgIdentifier: { PURL: string } }> }>;
      };
      const result = await scanTree(path.join(TRIVY, 'repo', repo), { extractors: all });
      expect(result.problems).toEqual([]);
      let checked = 0;
      for (const r of golden.Results) {
        const target = result.targets.find((t) => t.file === r.Target);
        expect(target, r.Target).toBeDefined();
        for (const v of r.Vulnerabilities ?? []) {
          const c = target!.components.find((x) => x.purl === v.PkgIdentifier.PURL);
          expect(c, `${v.VulnerabilityID} ${v.PkgIdentifier.PURL}`).toBeDefined();
          expect(c!.version).toBe(v.InstalledVersion);
          expect(c!.scope).toBe('runtime');
          checked++;
        }
      }
      console.log(`${repo}.json.golden: ${checked} 个漏洞对应的组件全部找到`);
      expect(checked).toBeGreaterThan(0);
    });
  }
});
