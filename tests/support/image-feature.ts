// A container image for the image feature file tests (engine, CLI, API, e2e): a dpkg database
// rewritten by later layers with one package purged, Python dist-infos, an npm app with its
// node_modules and a global npm package, each in its own layer; a licence file and a source file
// with a licence header and a copyright notice.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { writeOciLayout, type BuiltImage } from './registry.ts';

const pkg = (name: string, version: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n`;
const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n';
const SERVER_JS = '// SPDX-License-Identifier: Apache-2.0\n// Copyright 2025 Acme Images Ltd.\nconst secret = "image trade secret";\n';

/** Base system; then curl and Python's requests; then an app (npm, global npm) that purges `less`. */
export const IMAGE_LAYERS: Record<string, string>[] = [
  {
    'etc/os-release': OS_RELEASE,
    'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2')].join('\n'),
    'usr/share/doc/less/copyright': 'Copyright (C) 1984-2023 Mark Nudelman\n\nLicense: GPL-3+\n',
    'etc/motd': 'welcome\n',
  },
  {
    'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2'), pkg('curl', '7.88.1-10+deb12u5')].join('\n'),
    'usr/lib/python3/dist-packages/requests-2.31.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nLicense: Apache 2.0\n',
    'usr/lib/python3/dist-packages/requests/__init__.py': '# requests\n',
    'usr/local/lib/python3.11/site-packages/Django-3.2.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: Django\nVersion: 3.2.0\nLicense: BSD-3-Clause\n',
  },
  {
    'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')].join('\n'),
    'etc/.wh.motd': '',
    'app/package.json': JSON.stringify({ name: 'shop-api', version: '1.0.0', license: 'MIT', dependencies: { 'left-pad': '1.3.0' } }),
    'app/node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0', license: 'WTFPL' }),
    'app/server.js': SERVER_JS,
    'usr/local/lib/node_modules/npm/package.json': JSON.stringify({ name: 'npm', version: '10.2.4', license: 'Artistic-2.0' }),
  },
];

/** The image as a tar of its OCI layout (what docker save / skopeo copy give). */
export async function buildImage(dir: string): Promise<{ tarball: string; built: BuiltImage }> {
  const layout = path.join(dir, 'layout');
  const built = await writeOciLayout(layout, 'shop/api:1.4', [{ architecture: 'amd64', layers: IMAGE_LAYERS }]);
  const tarball = path.join(dir, 'api-image.tar');
  execFileSync('tar', ['-cf', tarball, '-C', layout, '.']);
  return { tarball, built };
}

