import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { extractors } from '../../../../server/engine/extractors/nix/index.ts';
import { parseStorePath } from '../../../../server/engine/extractors/nix/store.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { expectClaims } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/nix');
const extractor = extractors[0]!;

// Store paths named by the glibc-2.34-210 derivation of syft's nix fixture (its outputs, input
// derivations, sources and patches), as a NixOS store holds them.
const DRV_PATHS = [
  'h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin', 'hzp50ah3grczanw5fcgjsr390y3l8pb8-glibc-2.34-210-debug',
  'ap80aapy02950lnhkb3nsl58qqh55nbs-glibc-2.34-210-dev', 'jq8i4896sgmgbkk7nbjrnidxpxmgcid5-glibc-2.34-210',
  'vqrka8z8k7spqsrvp41z0vvjfn0kcim6-glibc-2.34-210-static', '5av396z8xa13jg89g9jws145c0k26k2x-glibc-2.34-210.drv',
  '4fnfsd9sc7bam6886hwyaprdsww66dg3-bison-3.8.2.drv', 'hqls6k3pcic45spig9bir01i1f7biagk-bison-3.8.2',
  'b6hn4v59mi4wz7g1579ikbykd16qp4n1-linux-headers-5.18', 'kb6n9zgssq80zkcm04admwm67gf480m4-python3-minimal-3.10.5',
  'yhsfk2in77yalcy8dr7cwlixh8cnqp1l-libidn2-2.3.2', 'z2r64ripyh2nn23xdgicxkw8xbh5zs65-binutils-2.38',
  'h0r631awi89fg5qpwn1nilpn36chqbkx-bootstrap-tools', 'wjbv1k6yigmb280wrvc1gkv8cnrsacij-glibc-2.34.tar.xz',
  '9krlzvny65gdc8s7kpb6lkx8cd02c25b-default-builder.sh', '8haph3ng4mgsqr6p4024vj8k6kg3mqc4-nix-locale-archive.patch',
  '95hp6hs9g73h93safadb8x6vajyqkv6q-0001-Revert-Remove-all-usage-of-BASH-or-BASH-in-installed.patch',
  'jf31qhzp3d1zq3rz6b5mkfijw2xaib49-bootstrap-stage2-stdenv-linux',
];

const temp = mkdtempSync(path.join(os.tmpdir(), 'cairn-nix-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('Nix store', () => {
  it('claims files under nix/store/<entry>', () => {
    expectClaims(extractor, ['nix/store/h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin/lib/glibc.so', 'img/nix/store/5av396z8xa13jg89g9jws145c0k26k2x-glibc-2.34-210.drv'], [
      'nix/store/lib/x.so', 'nix/var/nix/db/db.sqlite', 'mynix/store/h0cnbmfcn93xm5dg2x27ixhag1cwndga-x-1.0/a',
    ]);
    // An entry without a store hash is no package (the listing decides).
    expect(parseStorePath('not-a-hash-glibc-2.34')).toBeNull();
  });

  it('scans syft\'s fixture: the glibc bin output, one target for the store', async () => {
    const scan = await scanTree(path.join(FIXTURES, 'fixture-1'), { extractors: allExtractors });
    const targets = scan.targets.filter((t) => t.type === 'nix-store');
    expect(targets.map((t) => [t.file, t.components.map((c) => [c.purl, c.name, c.version, c.locations[0]!.file, c.confidence])])).toEqual([
      ['nix/store', [['pkg:nix/glibc@2.34-210?hash=h0cnbmfcn93xm5dg2x27ixhag1cwndga&output=bin', 'glibc', '2.34-210', 'nix/store/h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin', 0.8]]],
    ]);
    expect(targets[0]!.components[0]!.evidence).toEqual([{ file: 'nix/store/h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin', rule: 'Nix store 路径', text: 'h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin' }]);
  });

  it('a store of the derivation\'s paths: each output and package once, derivations, sources and unversioned paths left out', async () => {
    const root = path.join(temp, 'image');
    for (const entry of DRV_PATHS) {
      const dir = path.join(root, 'nix/store', entry);
      if (entry.endsWith('.drv') || /\.(?:patch|sh|xz)$/.test(entry)) {
        mkdirSync(path.dirname(dir), { recursive: true });
        writeFileSync(dir, 'x');
      } else {
        mkdirSync(path.join(dir, 'lib'), { recursive: true });
        writeFileSync(path.join(dir, 'lib', 'a'), 'x');
        writeFileSync(path.join(dir, 'lib', 'b'), 'x');
      }
    }
    const scan = await scanTree(root, { extractors: allExtractors });
    const targets = scan.targets.filter((t) => t.type === 'nix-store');
    expect(targets).toHaveLength(1);
    expect(targets[0]!.components.map((c) => c.purl.replace(/hash=\w+&?/, ''))).toEqual([
      'pkg:nix/glibc@2.34-210?output=dev',
      'pkg:nix/linux-headers@5.18?',
      'pkg:nix/glibc@2.34-210?output=bin',
      'pkg:nix/bison@3.8.2?',
      'pkg:nix/glibc@2.34-210?output=debug',
      'pkg:nix/glibc@2.34-210?',
      'pkg:nix/python3-minimal@3.10.5?',
      'pkg:nix/glibc@2.34-210?output=static',
      'pkg:nix/libidn2@2.3.2?',
      'pkg:nix/binutils@2.38?',
    ]);
    expect(scan.problems).toEqual([]);
  });

  it('store path names as parseDrvName splits them (syft\'s cases)', () => {
    const cases: Array<[string, [string, string, string] | null]> = [
      ['/nix/store/h0cnbmfcn93xm5dg2x27ixhag1cwndga-glibc-2.34-210-bin', ['glibc', '2.34-210', 'bin']],
      ['0296qxvn30z9b2ah1g5p97k5wr9k8y78-busybox-static-x86_64-unknown-linux-musl-1.35.0', ['busybox-static-x86_64-unknown-linux-musl', '1.35.0', '']],
      ['5zzrvdmlkc5rh3k5862krd3wfb3pqhyf-perl5.34.1-TimeDate-2.33', ['perl5.34.1-TimeDate', '2.33', '']],
      ['q38q8ng57zwjg1h15ry5zx0lb0xyax4b-libcap-2.63-lib', ['libcap', '2.63', 'lib']],
      ['zkgyp2vra0bgqm0dv1qi514l5fd0aksx-bash-interactive-5.1-p16-man', ['bash-interactive', '5.1-p16', 'man']],
      ['nwf2y0nc48ybim56308cr5ccvwkabcqc-openssl-1.1.1q', ['openssl', '1.1.1q', '']],
      ['n83qx7m848kg51lcjchwbkmlgdaxfckf-tzdata-2022a', ['tzdata', '2022a', '']],
      ['0amf0d1dymv9gqcyhhjb9j0l8sn00c56-libedit-20210910-3.1', ['libedit', '20210910-3.1', '']],
      ['abcdfghijklmnpqrsvwxyz0123456789-hello-unstable-2023-01-02', ['hello', 'unstable-2023-01-02', '']],
      ['yzahni8aig6mdrvcsccgwm2515lcpi5q-git-minimal-2.36.0.drv', null],
      ['z9yvxs0s3xdkp5jgmzis4g50bfq3dgvm-0018-pkg-config-derive-prefix-from-prefix.patch', null],
      ['w3hl7zrmc9qvzadc0k7cp9ysxiyz88j6-base-system', null],
      ['5q7vxm9lc4b9hifc3br4sr8dy7f2h0qa-source', null],
    ];
    for (const [input, want] of cases) {
      const got = parseStorePath(input);
      expect(got && [got.name, got.version, got.output], input).toEqual(want);
    }
  });
});
