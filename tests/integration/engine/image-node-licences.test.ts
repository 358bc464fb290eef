// The licence of an installed npm package whose package.json declares none, read from its own
// LICENSE file, in a container image (an application's node_modules copied in without its
// package.json, as images carry them) and in a source tree's node_modules beside a lockfile that
// names no licence: the component gets the licence of the text, names the file as a location,
// and the licence pass (which otherwise leaves node_modules alone) reads that file, so the licence
// tab shows where it came from (a feature file of the tree carries it too). A package that declares its licence keeps it, and its LICENSE is
// not read; a LICENSE that names no licence gives none.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseInWorker, writeFeatureFile } from '../../../server/engine/index.ts';
import { writeOciLayout } from '../../support/registry.ts';

const MIT = readFileSync(path.resolve('node_modules/react/LICENSE'), 'utf8').replace('Meta Platforms, Inc. and affiliates.', 'Jane Roe');
const ISC = 'ISC License\n\nCopyright (c) 2015 John Doe\n\nPermission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted, provided that the above copyright notice and this permission notice appear in all copies.\n\nTHE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.\n';
const pkg = (name: string, version: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, version, ...extra });

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'cairn-node-licences-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof analyseInWorker>>;
const licencesOf = (result: Result, name: string) => result.components.find((c) => c.name === name)!.licenses;
const findingIds = (result: Result, file: string) => result.findings.find((f) => f.path === file)?.licenses.map((l) => l.spdx) ?? [];

describe('an installed npm package without a licence field', () => {
  it('in an image: the licence of its LICENSE file, the file read by the licence pass', async () => {
    const layout = path.join(work, 'layout');
    await writeOciLayout(layout, 'shop/web:1.0', [{
      architecture: 'amd64',
      layers: [
        { 'etc/os-release': 'ID=debian\nVERSION_ID="12"\n' },
        {
          'app/node_modules/no-field/package.json': pkg('no-field', '1.0.0'),
          'app/node_modules/no-field/LICENSE': MIT,
          'app/node_modules/@scope/isc-only/package.json': pkg('@scope/isc-only', '2.1.0'),
          'app/node_modules/@scope/isc-only/LICENCE.txt': ISC,
          'app/node_modules/declared/package.json': pkg('declared', '3.0.0', { license: 'Apache-2.0' }),
          'app/node_modules/declared/LICENSE': MIT,
          'app/node_modules/vague/package.json': pkg('vague', '0.1.0'),
          'app/node_modules/vague/LICENSE': 'See the project website for terms.\n',
        },
      ],
    }]);
    const tarball = path.join(work, 'web.tar');
    execFileSync('tar', ['-cf', tarball, '-C', layout, '.']);
    const result = await analyseInWorker({ file: tarball, fileName: 'web.tar', kind: 'image', modes: [1, 4, 7], workDir: path.join(work, 'image-analysis') });

    expect(licencesOf(result, 'no-field')).toEqual(['MIT']);
    expect(licencesOf(result, '@scope/isc-only')).toEqual(['ISC']);
    expect(licencesOf(result, 'declared')).toEqual(['Apache-2.0']);
    expect(licencesOf(result, 'vague')).toEqual([]);
    const noField = result.components.find((c) => c.name === 'no-field')!;
    expect(noField.locations.map((l) => l.file)).toEqual(['app/node_modules/no-field/package.json', 'app/node_modules/no-field/LICENSE']);
    // Attributed to the layer of its package.json.
    expect(noField.layer).toBe(1);
    // The licence pass read the files the licences came from, and only those under node_modules.
    expect(findingIds(result, 'app/node_modules/no-field/LICENSE')).toContain('MIT');
    expect(findingIds(result, 'app/node_modules/@scope/isc-only/LICENCE.txt')).toContain('ISC');
    expect(result.files.map((f) => f.path)).toContain('app/node_modules/no-field/LICENSE');
    expect(result.files.map((f) => f.path)).not.toContain('app/node_modules/declared/LICENSE');
  }, 60_000);

  it('in a source tree: a lockfile without licences, node_modules shipped beside it', async () => {
    const src = path.join(work, 'src', 'shop');
    const put = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(src, rel)), { recursive: true });
      writeFileSync(path.join(src, rel), text);
    };
    put('package.json', pkg('shop', '1.0.0', { license: 'UNLICENSED', dependencies: { 'no-field': '^1.0.0' } }));
    put('package-lock.json', JSON.stringify({
      name: 'shop', version: '1.0.0', lockfileVersion: 3,
      packages: { '': { name: 'shop', version: '1.0.0', dependencies: { 'no-field': '^1.0.0' } }, 'node_modules/no-field': { version: '1.0.0' } },
    }));
    put('node_modules/no-field/package.json', pkg('no-field', '1.0.0'));
    put('node_modules/no-field/LICENSE-MIT', MIT);
    const archive = path.join(work, 'shop.tar');
    execFileSync('tar', ['-cf', archive, '-C', path.dirname(src), 'shop']);
    const result = await analyseInWorker({ file: archive, fileName: 'shop.tar', kind: 'source', modes: [1, 4], workDir: path.join(work, 'source-analysis') });
    expect(licencesOf(result, 'no-field')).toEqual(['MIT']);
    expect(findingIds(result, 'shop/node_modules/no-field/LICENSE-MIT')).toContain('MIT');

    // The feature file of the same tree carries the licence file the package scan read: the same licence.
    const featureZip = path.join(work, 'shop.cairn-feature.zip');
    await writeFeatureFile(src, featureZip, { tool: { name: 'Cairn', version: 'test' } });
    const fromFeature = await analyseInWorker({ file: featureZip, fileName: 'shop.cairn-feature.zip', kind: 'feature', modes: [1, 4], workDir: path.join(work, 'feature-analysis') });
    expect(licencesOf(fromFeature, 'no-field')).toEqual(['MIT']);
    expect(findingIds(fromFeature, 'shop/node_modules/no-field/LICENSE-MIT')).toContain('MIT');
  }, 60_000);
});
