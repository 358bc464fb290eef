import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/opam/index.ts';
import { parseOpam } from '../../../../server/engine/extractors/opam/opam.ts';
import { purlTypeOfOsvEcosystem } from '../../../../contract/ecosystems.ts';
import { schemeForEcosystem } from '../../../../server/engine/matchers/versions/index.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/opam');
const extractor = extractors[0]!;

// Every package pinc-lang.opam.locked pins, in file order; (d) marks the with-test / with-dev-setup ones.
const LOCKED = `angstrom@0.15.0 astring@0.8.5(d) base@v0.16.3(d) base-bigarray@base base-bytes@base(d) base-domains@base base-nnp@base
  base-threads@base base-unix@base base64@3.5.1 bigstringaf@0.9.1 bisect_ppx@2.8.3(d) camlp-streams@5.0.1(d) chrome-trace@3.11.1(d)
  cmdliner@1.2.0 containers@3.12 cppo@1.6.9 crunch@3.3.1 csexp@1.5.2 cstruct@6.2.0 domain-local-await@1.0.0 dune@3.11.1
  dune-build-info@3.11.1(d) dune-configurator@3.11.1 dune-rpc@3.11.1(d) dyn@3.11.1(d) eio@dev eio_main@dev eio_posix@dev either@1.0.0
  faraday@0.8.2 fiber@3.7.0(d) fix@20230505(d) fmt@0.9.0 fpath@0.7.3(d) gluten@0.5.0 gluten-eio@0.5.0 grpc@0.2.0 grpc-eio@0.2.0
  h2@0.11 h2-eio@0.11 hmap@0.8.1 hpack@0.11 httpaf@0.7.1 iomux@0.3 lwt-dllist@1.0.1 menhir@20230608(d) menhirLib@20230608(d)
  menhirSdk@20230608(d) merlin-lib@4.12-501(d) mtime@2.0.0 ocaml@5.1.0 ocaml-base-compiler@5.1.0 ocaml-compiler-libs@v0.12.4
  ocaml-config@3 ocaml-lsp-server@1.16.2(d) ocaml-options-vanilla@1 ocaml-protoc@2.4 ocaml-syntax-shims@1.0.0 ocaml-version@3.6.2(d)
  ocamlbuild@0.14.2 ocamlc-loc@3.11.1(d) ocamlfind@1.9.6 ocamlformat@0.26.1(d) ocamlformat-lib@0.26.1(d) ocamlformat-rpc-lib@0.26.1(d)
  ocp-indent@1.8.1(d) odoc-parser@2.0.0(d) optint@0.3.0 ordering@3.11.1(d) pbrt@2.4 pp@1.2.0(d) ppx_derivers@1.2.1 ppx_deriving@5.2.1
  ppx_yojson_conv_lib@v0.16.0(d) ppxlib@0.31.0 psq@0.2.1 ptime@1.1.0 re@1.11.0(d) result@1.5 seq@base sexplib0@v0.16.0 spawn@v0.15.1(d)
  stdio@v0.16.0(d) stdlib-shims@0.3.0 stdune@3.11.1(d) stringext@1.6.0 thread-table@1.0.0 topkg@1.0.7 uri@4.4.0 uucp@15.1.0(d)
  uuseg@15.1.0(d) uutf@1.0.3(d) xdg@3.11.1(d) yojson@2.1.1(d)`.trim().split(/\s+/);

describe('opam', () => {
  it('claims opam files, lock files and installed packages\' opam files', () => {
    expectClaims(extractor, ['alcotest.opam', 'x/pinc-lang.opam.locked', 'opam', '_opam/.opam-switch/packages/dune.3.11.1/opam'], ['.opam', 'opam.txt', 'x.opam.bak', 'dune-project']);
  });

  it('reads alcotest.opam: the project and its depends with constraints, documentation-only as development', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'alcotest'), 'alcotest.opam');
    expect(t.type).toBe('opam');
    expect(t.project).toEqual({ purl: 'pkg:opam/alcotest@1.5.0', name: 'alcotest', version: '1.5.0' });
    expect(t.components.map((c) => [c.purl, c.constraint, c.scope, c.direct, c.locations[0]!.startLine])).toEqual([
      ['pkg:opam/dune', '>= 2.8', 'runtime', true, 23],
      ['pkg:opam/ocaml', '>= 4.03.0', 'runtime', true, 24],
      ['pkg:opam/fmt', '>= 0.8.7', 'runtime', true, 25],
      ['pkg:opam/astring', undefined, 'runtime', true, 26],
      ['pkg:opam/cmdliner', '>= 1.0.0', 'runtime', true, 27],
      ['pkg:opam/re', undefined, 'runtime', true, 28],
      ['pkg:opam/stdlib-shims', undefined, 'runtime', true, 29],
      ['pkg:opam/uutf', undefined, 'runtime', true, 30],
      ['pkg:opam/ocaml-syntax-shims', undefined, 'runtime', true, 31],
      ['pkg:opam/odoc', undefined, 'development', true, 32],
    ]);
  });

  it('reads pinc-lang.opam.locked: every pinned package, the ones pinc-lang.opam declares direct', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'pinc-lang'), 'pinc-lang.opam.locked');
    expect(t.type).toBe('opam-locked');
    expect(t.project).toEqual({ purl: 'pkg:opam/pinc-lang@dev', name: 'pinc-lang', version: 'dev' });
    expect(t.components.map((c) => `${c.name}@${c.version}${c.scope === 'development' ? '(d)' : ''}`)).toEqual(LOCKED);
    expect(t.components.every((c) => c.purl === `pkg:opam/${c.name}@${c.version}` && !c.constraint)).toBe(true);
    expect(t.roots).toEqual([
      'pkg:opam/bisect_ppx@2.8.3', 'pkg:opam/containers@3.12', 'pkg:opam/crunch@3.3.1', 'pkg:opam/dune@3.11.1', 'pkg:opam/eio_main@dev',
      'pkg:opam/fmt@0.9.0', 'pkg:opam/grpc-eio@0.2.0', 'pkg:opam/ocaml@5.1.0', 'pkg:opam/ocaml-lsp-server@1.16.2', 'pkg:opam/ocaml-protoc@2.4',
      'pkg:opam/ocamlformat@0.26.1',
    ]);
    expect(t.components.find((c) => c.name === 'angstrom')!.locations).toEqual([{ file: 'pinc-lang.opam.locked', startLine: 11, endLine: 11 }]);
  });

  it('an installed package in a switch is itself the component, with its licence (the compiler\'s formula of alternatives passed over)', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'switch'), '_opam/.opam-switch/packages/ocaml-base-compiler.4.14.0/opam');
    expect(t.project).toBeNull();
    expect(t.components.map((c) => [c.purl, c.licenses, c.direct])).toEqual([
      ['pkg:opam/ocaml-base-compiler@4.14.0', ['LGPL-2.1-or-later WITH OCaml-LGPL-linking-exception'], true],
    ]);
  });

  it('filters: constraints joined, variable comparisons and flags told apart', () => {
    const t = parseOpam('opam-version: "2.0"\nname: "x"\ndepends: [\n  "a" {>= "1.0" & < "2.0" & with-test}\n  "b" {os = "win32"}\n  ("c" | "d" {build})\n  "e" {= "1.2" & ?vendor}\n]\n', 'x.opam');
    expect(t.components.map((c) => [c.name, c.version, c.constraint, c.scope])).toEqual([
      ['a', '', '>= 1.0 & < 2.0', 'development'], ['b', '', undefined, 'runtime'], ['c', '', undefined, 'runtime'], ['d', '', undefined, 'development'],
      ['e', '1.2', undefined, 'runtime'],
    ]);
  });

  it('malformed opam files; an `opam` that is no opam file is not read', async () => {
    expect(() => parseOpam('depends: [ "a" ', 'x.opam')).toThrow(ExtractError);
    expect(() => parseOpam('name: "x\n', 'x.opam')).toThrow(/没有结束/);
    const binary = { path: 'bin/opam', size: 4, read: async () => Buffer.from('\x7fELF'), text: async () => '\x7fELF\u0000\u0001' };
    expect(await extractor.extract(binary, { readText: async () => undefined, list: async () => [], exists: async () => false, signal: new AbortController().signal })).toEqual([]);
  });

  it('OSV\'s opam advisories meet these components, versions ordered as opam orders them', () => {
    expect(purlTypeOfOsvEcosystem('opam')).toBe('opam');
    const scheme = schemeForEcosystem('opam');
    expect(scheme.compare('4.14.0', '4.14.1')).toBeLessThan(0);
    expect(scheme.compare('1.0~beta', '1.0')).toBeLessThan(0);
    expect(scheme.compare('v0.16.3', 'v0.16.10')).toBeLessThan(0);
    expect(scheme.compare('4.12-501', '4.12-414')).toBeGreaterThan(0);
  });
});
