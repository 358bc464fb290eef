// A generated container image for issue 16's benchmark: an OCI image layout as one tar of about
// 500 MB in five gzip-compressed layers, as `docker build` of a Node + Python application on Debian
// would leave it:
//   1. a Debian base: this machine's /var/lib/dpkg/status padded with renamed copies of its stanzas
//      to ~1,500 packages, each with /usr/share/doc/<pkg>/copyright (this machine's real file, else
//      a DEP-5 file with a full text from /usr/share/common-licenses), var/lib/dpkg/info lists and
//      md5sums, a compressed changelog, /etc/os-release;
//   2. `npm ci`: ~1,000 packages under /app/node_modules (package.json, LICENSE, README, JS files
//      with copyright headers) and the app's package.json + package-lock.json (v3);
//   3. `pip install`: ~500 dist-info packages under site-packages (METADATA, RECORD, LICENSE,
//      WHEEL, modules);
//   4. `apt-get install`: the dpkg status rewritten with ~100 more packages and a few upgrades;
//   5. bulk data: incompressible random bytes (small "assets" under the licence pass's 4 MiB cut
//      and large blobs above it) filling the image to its size.
// Deterministic but for the random bytes; made once with tar and gzip in child processes and
// cached under the temp folder by size.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface LargeImage {
  tar: string;
  bytes: number;
  layers: Array<{ step: string; compressed: number; files: number }>;
  /** Packages planted: final dpkg status, node_modules, dist-info. */
  planted: { dpkg: number; npm: number; python: number };
}

const MiB = 1024 * 1024;
const COMMON = '/usr/share/common-licenses';
const COMMON_TEXTS = ['Apache-2.0', 'GPL-2', 'GPL-3', 'LGPL-2.1', 'LGPL-3', 'MPL-2.0', 'Artistic', 'BSD'];

const MIT = (holder: string) => `MIT License

Copyright (c) 2019-2024 ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
const ISC = (holder: string) => `ISC License

Copyright (c) 2015-2023 ${holder}

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
`;
const BSD3 = (holder: string) => `BSD 3-Clause License

Copyright (c) 2012-2024, ${holder}
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
`;

/** Deterministic pseudo-random numbers. */
function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function put(root: string, rel: string, data: string | Buffer): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
}

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n++;
  return n;
}

interface Stanza { name: string; text: string }

function stanzas(status: string): Stanza[] {
  return status.split(/\n\n+/).filter((s) => /^Package: /m.test(s)).map((text) => ({ name: /^Package: (.+)$/m.exec(text)![1]!.trim(), text: text.trim() }));
}

function renamed(s: Stanza, name: string, version?: string): Stanza {
  let text = s.text.replace(/^Package: .+$/m, `Package: ${name}`);
  if (version) text = text.replace(/^Version: .+$/m, `Version: ${version}`);
  return { name, text };
}

/** A Debian package's files in `root`: its copyright file, dpkg's list and md5sums, a compressed changelog. */
function debianPackage(root: string, s: Stanza, copyrightOf: (origin: string) => string, origin: string, i: number): void {
  const doc = `usr/share/doc/${s.name}`;
  put(root, `${doc}/copyright`, copyrightOf(origin));
  const version = /^Version: (.+)$/m.exec(s.text)?.[1] ?? '1.0-1';
  put(root, `${doc}/changelog.Debian.gz`, gzipSync(`${s.name} (${version}) bookworm; urgency=medium\n\n  * Rebuild ${i}.\n\n -- Debian Maintainers <debian@lists.debian.org>  Mon, 01 Jan 2024 00:00:00 +0000\n`));
  const files = [`/${doc}`, `/${doc}/copyright`, `/${doc}/changelog.Debian.gz`, `/usr/lib/x86_64-linux-gnu/${s.name}.so.${i % 7}`];
  put(root, `var/lib/dpkg/info/${s.name}.list`, files.join('\n') + '\n');
  put(root, `var/lib/dpkg/info/${s.name}.md5sums`, files.slice(1).map((f) => `${createHash('md5').update(f).digest('hex')}  ${f.slice(1)}\n`).join(''));
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file).on('data', (d) => hash.update(d)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });
}

/** The image tar under the temp folder, made once per size. */
export async function largeImage(totalMb = 500): Promise<LargeImage> {
  const root = path.join(tmpdir(), `cairn-bench-image-v1-${totalMb}`);
  const tar = path.join(root, 'image.tar');
  const meta = path.join(root, 'meta.json');
  if (existsSync(meta)) return { tar, ...(JSON.parse(readFileSync(meta, 'utf8')) as Omit<LargeImage, 'tar'>) };
  rmSync(root, { recursive: true, force: true });
  const layout = path.join(root, 'layout');
  const blobs = path.join(layout, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  const random = rng(16);

  const real = stanzas(readFileSync('/var/lib/dpkg/status', 'utf8'));
  const realCopyright = new Map<string, string>();
  for (const s of real) {
    const file = `/usr/share/doc/${s.name}/copyright`;
    if (existsSync(file)) realCopyright.set(s.name, readFileSync(file, 'utf8'));
  }
  const commonTexts = COMMON_TEXTS.filter((n) => existsSync(path.join(COMMON, n))).map((n) => ({ id: n, text: readFileSync(path.join(COMMON, n), 'utf8') }));
  const copyrightOf = (origin: string): string => {
    const known = realCopyright.get(origin);
    if (known) return known;
    const licence = commonTexts[Math.abs([...origin].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0)) % commonTexts.length]!;
    return `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: ${origin}\n\nFiles: *\nCopyright: 2010-2024 The ${origin} authors\nLicense: ${licence.id}\n\nLicense: ${licence.id}\n ${licence.text.split('\n').map((l) => (l.trim() ? l : '.')).join('\n ')}\n`;
  };

  const layers: Array<{ step: string; dir: string }> = [];
  const stage = (step: string) => {
    const dir = path.join(root, `layer-${layers.length}`);
    mkdirSync(dir, { recursive: true });
    layers.push({ step, dir });
    return dir;
  };

  // 1. Debian base: ~1,500 packages.
  const base = stage('ADD debian-bookworm-rootfs.tar.xz /');
  const OS_BASE = 1500;
  const baseStanzas: Stanza[] = [...real];
  const origins = new Map<string, string>(real.map((s) => [s.name, s.name]));
  for (let i = 0; baseStanzas.length < OS_BASE; i++) {
    const from = real[i % real.length]!;
    const s = renamed(from, `${from.name}-extra${Math.floor(i / real.length) + 1}`);
    baseStanzas.push(s);
    origins.set(s.name, from.name);
  }
  baseStanzas.forEach((s, i) => debianPackage(base, s, copyrightOf, origins.get(s.name)!, i));
  put(base, 'var/lib/dpkg/status', baseStanzas.map((s) => s.text).join('\n\n') + '\n');
  put(base, 'etc/os-release', 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL="https://www.debian.org/"\n');
  put(base, 'etc/debian_version', '12.8\n');

  // 2. npm ci: ~1,000 packages.
  const node = stage('RUN npm ci --omit=dev');
  const NPM = 1000;
  const lockPackages: Record<string, unknown> = { '': { name: 'bench-app', version: '1.0.0', license: 'UNLICENSED', dependencies: {} as Record<string, string> } };
  const appDeps: Record<string, string> = {};
  for (let i = 0; i < NPM; i++) {
    const name = i % 5 === 0 ? `@bench${i % 40}/pkg-${i}` : `bench-pkg-${i}`;
    const version = `${1 + (i % 9)}.${i % 17}.${i % 5}`;
    const licence = ['MIT', 'MIT', 'ISC', 'Apache-2.0', 'BSD-3-Clause'][i % 5]!;
    const holder = `Author ${i} <author${i}@example.com>`;
    const dir = `app/node_modules/${name}`;
    const deps: Record<string, string> = {};
    for (const d of [i + 1, i + 7]) if (d < NPM && d % 5 !== 0) deps[`bench-pkg-${d}`] = `^${1 + (d % 9)}.${d % 17}.0`;
    put(node, `${dir}/package.json`, JSON.stringify({ name, version, description: `Bench package ${i}`, main: 'index.js', license: licence, author: holder, repository: { type: 'git', url: `git+https://github.com/bench/pkg-${i}.git` }, dependencies: deps }, null, 2));
    put(node, `${dir}/LICENSE`, licence === 'MIT' ? MIT(holder) : licence === 'ISC' ? ISC(holder) : licence === 'BSD-3-Clause' ? BSD3(holder) : readFileSync(path.join(COMMON, 'Apache-2.0'), 'utf8'));
    put(node, `${dir}/README.md`, `# ${name}\n\nBench package number ${i}.\n\n## Install\n\n    npm install ${name}\n\n## License\n\n${licence}\n`);
    const body = Array.from({ length: 40 + Math.floor(random() * 80) }, (_, k) => `function f${k}(a, b) { return a${k % 3 ? ' + ' : ' * '}b + ${k}; }\nexports.f${k} = f${k};`).join('\n');
    put(node, `${dir}/index.js`, `/*!\n * ${name} v${version}\n * (c) 2024 ${holder}\n * Released under the ${licence} License.\n */\n'use strict';\nmodule.exports = require('./lib/main.js');\n`);
    put(node, `${dir}/lib/main.js`, `'use strict';\n${body}\n`);
    put(node, `${dir}/lib/util.js`, `'use strict';\n// Copyright ${2015 + (i % 10)} ${holder}\n${body.slice(0, 2000)}\n`);
    put(node, `${dir}/lib/main.d.ts`, `export declare function f0(a: number, b: number): number;\n`);
    if (i % 5 !== 0 && i < 200) appDeps[name] = `^${version}`;
    lockPackages[`node_modules/${name}`] = { version, resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(name + version).digest('base64')}`, license: licence, ...(Object.keys(deps).length && { dependencies: deps }) };
  }
  (lockPackages[''] as { dependencies: Record<string, string> }).dependencies = appDeps;
  put(node, 'app/package.json', JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true, license: 'UNLICENSED', dependencies: appDeps }, null, 2));
  put(node, 'app/package-lock.json', JSON.stringify({ name: 'bench-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages: lockPackages }, null, 2));
  put(node, 'app/server.js', `'use strict';\nrequire('bench-pkg-1');\n`);

  // 3. pip install: ~500 dist-info packages.
  const python = stage('RUN pip install --no-cache-dir -r requirements.txt');
  const PY = 500;
  const site = 'usr/local/lib/python3.11/site-packages';
  for (let i = 0; i < PY; i++) {
    const name = `bench_py_${i}`;
    const version = `${i % 4}.${i % 23}.${i % 3}`;
    const licence = ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'MIT'][i % 4]!;
    const holder = `Py Author ${i}`;
    const info = `${site}/${name}-${version}.dist-info`;
    put(python, `${info}/METADATA`, `Metadata-Version: 2.1\nName: ${name.replace(/_/g, '-')}\nVersion: ${version}\nSummary: Bench Python package ${i}\nAuthor: ${holder}\nLicense: ${licence}\nClassifier: Programming Language :: Python :: 3\nRequires-Python: >=3.8\n${i + 3 < PY ? `Requires-Dist: bench-py-${i + 3}>=0\n` : ''}\nBench package ${i}.\n`);
    put(python, `${info}/LICENSE`, licence === 'MIT' ? MIT(holder) : licence === 'BSD-3-Clause' ? BSD3(holder) : readFileSync(path.join(COMMON, 'Apache-2.0'), 'utf8'));
    put(python, `${info}/WHEEL`, 'Wheel-Version: 1.0\nGenerator: bdist_wheel (0.42.0)\nRoot-Is-Purelib: true\nTag: py3-none-any\n');
    put(python, `${info}/INSTALLER`, 'pip\n');
    put(python, `${info}/top_level.txt`, `${name}\n`);
    const mods = ['__init__.py', 'core.py', 'utils.py'];
    for (const m of mods) put(python, `${site}/${name}/${m}`, `# Copyright (c) ${2016 + (i % 8)} ${holder}\n# SPDX-License-Identifier: ${licence}\n${Array.from({ length: 30 + (i % 40) }, (_, k) => `def f${k}(a, b):\n    return a + b * ${k}\n`).join('\n')}`);
    put(python, `${info}/RECORD`, [...mods.map((m) => `${name}/${m},,`), `${name}-${version}.dist-info/METADATA,,`, `${name}-${version}.dist-info/RECORD,,`].join('\n') + '\n');
  }

  // 4. apt-get install: the status rewritten with ~100 more packages, 20 upgraded.
  const apt = stage('RUN apt-get update && apt-get install -y --no-install-recommends build-essential curl');
  const added: Stanza[] = [];
  for (let i = 0; i < 100; i++) {
    const from = real[(i * 7) % real.length]!;
    const s = renamed(from, `${from.name}-apt${i}`);
    added.push(s);
    debianPackage(apt, s, copyrightOf, from.name, OS_BASE + i);
  }
  const upgraded = baseStanzas.map((s, i) => (i % 75 === 0 ? renamed(s, s.name, `${/^Version: (.+)$/m.exec(s.text)?.[1] ?? '1'}+deb12u1`) : s));
  const finalStatus = [...upgraded, ...added];
  put(apt, 'var/lib/dpkg/status', finalStatus.map((s) => s.text).join('\n\n') + '\n');
  put(apt, 'var/lib/apt/extended_states', added.map((s) => `Package: ${s.name}\nArchitecture: amd64\nAuto-Installed: 0\n`).join('\n'));

  // Compress the package layers, then fill the rest with random bytes.
  const made: LargeImage['layers'] = [];
  const descriptors: Array<{ digest: string; size: number; diffId: string }> = [];
  const pack = async (step: string, dir: string) => {
    const raw = path.join(root, 'layer.tar');
    const files = countFiles(dir);
    execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=2026-01-01', '-C', dir, '-cf', raw, '.']);
    rmSync(dir, { recursive: true, force: true });
    const diffId = await sha256File(raw);
    execFileSync('gzip', ['-1', '-n', raw]);
    const gz = `${raw}.gz`;
    const hex = await sha256File(gz);
    const size = statSync(gz).size;
    renameSync(gz, path.join(blobs, hex));
    descriptors.push({ digest: `sha256:${hex}`, size, diffId: `sha256:${diffId}` });
    made.push({ step, compressed: size, files });
  };
  for (const l of layers) await pack(l.step, l.dir);

  const bulk = path.join(root, 'bulk');
  const sofar = made.reduce((n, l) => n + l.compressed, 0);
  const rest = Math.max(0, totalMb * MiB - sofar - MiB);
  // A fifth as 400 small assets (read by the licence pass as binaries), the rest as 32 MiB blobs.
  const small = Math.min(rest, Math.floor(rest / 5));
  const assets = 400;
  mkdirSync(path.join(bulk, 'opt/data/assets'), { recursive: true });
  execFileSync('sh', ['-c', `head -c ${small} /dev/urandom | split -a 3 -d -b ${Math.ceil(small / assets)} - ${path.join(bulk, 'opt/data/assets/asset-')}`]);
  const big = rest - small;
  execFileSync('sh', ['-c', `head -c ${big} /dev/urandom | split -a 2 -d -b ${32 * MiB} - ${path.join(bulk, 'opt/data/blob-')}`]);
  await pack('COPY data/ /opt/data/', bulk);

  const config = Buffer.from(JSON.stringify({
    created: '2026-01-02T03:04:05Z', architecture: 'amd64', os: 'linux',
    config: { Env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production'], Cmd: ['node', 'server.js'], WorkingDir: '/app' },
    rootfs: { type: 'layers', diff_ids: descriptors.map((d) => d.diffId) },
    history: made.map((l, i) => ({ created: `2026-01-02T00:00:0${i}Z`, created_by: l.step })),
  }));
  const blob = (data: Buffer) => {
    const hex = createHash('sha256').update(data).digest('hex');
    writeFileSync(path.join(blobs, hex), data);
    return { digest: `sha256:${hex}`, size: data.length };
  };
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...blob(config) },
    layers: descriptors.map((d) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: d.digest, size: d.size })),
  }));
  const m = blob(manifest);
  writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...m, annotations: { 'org.opencontainers.image.ref.name': 'bench/app:latest' } }] }));
  execFileSync('tar', ['--owner=0', '--group=0', '--numeric-owner', '-C', layout, '-cf', tar, 'oci-layout', 'index.json', 'blobs']);
  rmSync(layout, { recursive: true, force: true });
  const info: Omit<LargeImage, 'tar'> = { bytes: statSync(tar).size, layers: made, planted: { dpkg: finalStatus.length, npm: NPM, python: PY } };
  writeFileSync(meta, JSON.stringify(info));
  return { tar, ...info };
}
