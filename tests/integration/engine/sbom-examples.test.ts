// Real SBOMs (CycloneDX/bom-examples: keycloak, laravel, proton-bridge, cern) and trivy's
// fixtures import with the components and purls the files themselves list.
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PackageURL } from 'packageurl-js';
import { describe, expect, it } from 'vitest';
import { loadSbom, type Target } from '../../../server/engine/index.ts';

const { decodeText, importSbom } = await loadSbom();

const corpora = resolve(import.meta.dirname, '../../../../shared/corpora');
const examples = resolve(corpora, 'sbom/examples');

const canonical = (purl: string): string => PackageURL.fromString(purl.trim()).toString();

/** purls of every component (nested ones too) as the JSON file lists them, minus the project's. */
function jsonPurls(text: string): { purls: Set<string>; components: number; project: string | undefined } {
  const doc = JSON.parse(text) as { metadata?: { component?: { purl?: string } }; components?: unknown[] };
  type C = { purl?: string; components?: C[] };
  const purls = new Set<string>();
  let components = 0;
  const walk = (list: C[]) => { for (const c of list) { components++; if (c.purl) purls.add(canonical(c.purl)); walk(c.components ?? []); } };
  walk((doc.components ?? []) as C[]);
  const project = doc.metadata?.component?.purl ? canonical(doc.metadata.component.purl) : undefined;
  if (project) purls.delete(project);
  return { purls, components, project };
}

/** purls of every component in an XML file, read with a regex independent of the importer. */
function xmlPurls(text: string): { purls: Set<string>; project: string | undefined } {
  const metadata = /<metadata>[\s\S]*?<\/metadata>/.exec(text)?.[0] ?? '';
  const purlElement = /<purl>\s*(?:<!\[CDATA\[([^\]]+)\]\]>|([^<]+))\s*<\/purl>/g;
  const value = (m: RegExpMatchArray): string => m[1] ?? m[2]!.replace(/&amp;/g, '&');
  const projectMatch = [...metadata.matchAll(purlElement)][0];
  const project = projectMatch ? value(projectMatch) : undefined;
  const body = text.replace(metadata, '');
  const purls = new Set([...body.matchAll(purlElement)].map((m) => canonical(value(m))));
  if (project) purls.delete(canonical(project));
  return { purls, project: project && canonical(project) };
}

const purlsOf = (target: Target) => new Set(target.components.map((c) => c.purl));

describe('real SBOM examples', () => {
  it('import every CycloneDX example with the purls and counts of the file', async () => {
    const folders = ['keycloak-10.0.2', 'laravel-7.12.0', 'proton-bridge', 'cern-lhc-vdm-editor-e564943'];
    const summary: string[] = [];
    for (const folder of folders) {
      for (const name of (await readdir(resolve(examples, folder))).filter((n) => /\.(json|xml)$/.test(n)).sort()) {
        const text = await readFile(resolve(examples, folder, name), 'utf8');
        const target = await importSbom(text, `${folder}/${name}`);
        const expected = name.endsWith('.json') ? jsonPurls(text) : xmlPurls(text);
        expect(purlsOf(target), `${folder}/${name}`).toEqual(expected.purls);
        expect(target.components.length, `${folder}/${name}`).toBe(expected.purls.size);
        if (expected.project) expect(target.project?.purl).toBe(expected.project);
        summary.push(`${folder}/${name}: ${target.components.length} components, ${target.roots.length} roots, ${target.components.reduce((n, c) => n + c.dependsOn.length, 0)} edges`);
      }
    }
    console.log(summary.join('\n'));
  }, 120_000);

  it('keeps counts, graph and licences of keycloak and laravel', async () => {
    const keycloak = await importSbom(await readFile(resolve(examples, 'keycloak-10.0.2/bom.json'), 'utf8'), 'bom.json');
    const raw = jsonPurls(await readFile(resolve(examples, 'keycloak-10.0.2/bom.json'), 'utf8'));
    expect(raw.components).toBe(903);
    expect(keycloak.components).toHaveLength(903);
    expect(keycloak.ecosystem).toBe('maven');
    const slf4j = keycloak.components.find((c) => c.name === 'org.slf4j:slf4j-api');
    expect(slf4j?.purl).toMatch(/^pkg:maven\/org\.slf4j\/slf4j-api@/);

    const laravel = await importSbom(await readFile(resolve(examples, 'laravel-7.12.0/bom.1.4.json'), 'utf8'), 'bom.json');
    expect(laravel.project?.purl).toBe('pkg:composer/cyclonedx/cyclonedx-php-composer-demo@dev-master');
    expect(laravel.roots).toEqual(['pkg:composer/laravel/laravel@v7.12.0']);
    expect(laravel.components.find((c) => c.purl === 'pkg:composer/laravel/laravel@v7.12.0')).toMatchObject({ direct: true, name: 'laravel/laravel', licenses: ['MIT'] });
    const withEdges = laravel.components.filter((c) => c.dependsOn.length);
    expect(withEdges.length).toBeGreaterThan(10);
    for (const c of withEdges) for (const child of c.dependsOn) expect(purlsOf(laravel).has(child) || child === laravel.project?.purl).toBe(true);

    // The same SBOM as JSON and XML gives the same components.
    const xml = await importSbom(await readFile(resolve(examples, 'laravel-7.12.0/bom.1.4.xml'), 'utf8'), 'bom.xml');
    expect(purlsOf(xml)).toEqual(purlsOf(laravel));
    expect(xml.roots).toEqual(laravel.roots);
  }, 60_000);

  it('imports the trivy SBOM fixtures', async () => {
    const dir = resolve(corpora, 'trivy/sbom');
    const summary: string[] = [];
    for (const name of (await readdir(dir)).filter((n) => /\.(json|txt|jsonl)$/.test(n)).sort()) {
      const text = decodeText(await readFile(resolve(dir, name)));
      const target = await importSbom(text, name);
      expect(target.components.length, name).toBeGreaterThan(0);
      if (name.endsWith('.json') && /"bomFormat"/.test(text)) {
        // Components without a purl (trivy's operating-system entry) are kept under a derived generic purl.
        const given = jsonPurls(text).purls;
        const derived = [...purlsOf(target)].filter((p) => !given.has(p));
        expect(derived.every((p) => p.startsWith('pkg:generic/')), name).toBe(true);
        expect(purlsOf(target).size, name).toBe(given.size + derived.length);
        for (const purl of given) expect(purlsOf(target).has(purl), `${name}: ${purl}`).toBe(true);
      }
      summary.push(`${name}: ${target.type} ${target.components.length} components, project ${target.project?.name ?? '—'}`);
    }
    console.log(summary.join('\n'));
    // The CycloneDX and SPDX renderings of the same centos-7 scan agree.
    const cdx = await importSbom(await readFile(resolve(dir, 'centos-7-cyclonedx.json'), 'utf8'), 'c.json');
    const spdx = await importSbom(await readFile(resolve(dir, 'centos-7-spdx.json'), 'utf8'), 's.json');
    const tag = await importSbom(await readFile(resolve(dir, 'centos-7-spdx.txt'), 'utf8'), 's.txt');
    const rpms = (t: Target) => t.components.filter((c) => c.ecosystem === 'rpm').map((c) => c.purl).sort();
    expect(rpms(cdx).length).toBeGreaterThan(0);
    expect(rpms(spdx)).toEqual(rpms(cdx));
    expect(rpms(tag)).toEqual(rpms(cdx));
    // The in-toto attestation wraps the same CycloneDX document.
    const attested = await importSbom(await readFile(resolve(dir, 'centos-7-cyclonedx.intoto.jsonl'), 'utf8'), 'a.jsonl');
    expect(rpms(attested)).toEqual(rpms(cdx));
  }, 60_000);
});
