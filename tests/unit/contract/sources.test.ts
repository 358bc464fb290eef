// The source-type table (contract/sources.ts): every getCodeType once, in the form's groups, with
// the input kind the platform analyses, the exact message of a type it cannot analyse yet and the
// files a local upload takes.
import { describe, expect, it } from 'vitest';
import { ALL_CODE_TYPES, CODE_TYPE_LABEL, LOCAL_UPLOAD_CODE_TYPES } from '../../../contract/enums.ts';
import { inputKindOf, sameSourceCodes, SOURCE_GROUPS, SOURCE_TYPES, sourceTypeOf, unsupportedSource } from '../../../contract/sources.ts';

describe('source types', () => {
  it('lists every getCodeType exactly once', () => {
    const codes = SOURCE_TYPES.map((t) => t.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort((a, b) => a - b)).toEqual(ALL_CODE_TYPES);
  });

  it('groups the codes by what is analysed, one code per source (the others are its aliases)', () => {
    expect(SOURCE_GROUPS).toEqual([
      { label: '源码', codes: [0, 2, 1, 39, 5, 11, 33, 35, 19] },
      { label: '容器镜像', codes: [12, 32, 13, 31, 14, 15] },
      { label: '二进制', codes: [16, 17, 18, 36, 38] },
      { label: 'SBOM', codes: [30] },
      { label: '清单', codes: [9, 34] },
    ]);
    // every group's names are distinct, so no option needs its code
    for (const g of SOURCE_GROUPS) {
      const names = g.codes.map((c) => sourceTypeOf(c)!.name);
      expect(new Set(names).size, g.label).toBe(names.length);
    }
    // each code's group matches the kind its spec label names
    const kindOfLabel = (label: string) => (label.startsWith('源码') ? '源码' : label.startsWith('容器镜像') ? '容器镜像' : label.startsWith('二进制') ? '二进制' : label === 'SBOM' ? 'SBOM' : '清单');
    for (const t of SOURCE_TYPES) expect(t.group, String(t.code)).toBe(kindOfLabel(CODE_TYPE_LABEL[t.code]));
  });

  it('keeps the codes the spec gives one source as aliases, matched together by filters', () => {
    const aliases = Object.fromEntries(SOURCE_TYPES.filter((t) => t.aliasOf !== null).map((t) => [t.code, t.aliasOf]));
    expect(aliases).toEqual({ 4: 2, 7: 2, 10: 2, 3: 1, 8: 1, 40: 39, 37: 36 });
    for (const [code, of] of Object.entries(aliases)) expect(CODE_TYPE_LABEL[Number(code) as 4]).toBe(CODE_TYPE_LABEL[of as 2]);
    expect(sameSourceCodes(2)).toEqual([2, 4, 7, 10]);
    expect(sameSourceCodes(7)).toEqual([2, 4, 7, 10]);
    expect(sameSourceCodes(37)).toEqual([36, 37]);
    expect(sameSourceCodes(0)).toEqual([0]);
  });

  it('analyses the local uploads of source, feature file, image archive, binary, SBOM and Excel list, and the images of registries', () => {
    const analysed = Object.fromEntries(SOURCE_TYPES.filter((t) => t.input).map((t) => [t.code, t.input]));
    expect(analysed).toEqual({ 0: 'source', 9: 'feature', 12: 'image', 32: 'image', 16: 'binary', 30: 'sbom', 34: 'excel', 13: 'image', 31: 'image', 14: 'image', 15: 'image' });
    // a registry's image is pulled by the run: nothing is uploaded
    for (const code of [13, 14, 15, 31]) expect(sourceTypeOf(code)?.upload, String(code)).toBeNull();
    expect(inputKindOf(34)).toBe('excel');
    expect(inputKindOf(2)).toBeNull();
    expect(inputKindOf(999)).toBeNull();
    for (const t of SOURCE_TYPES) expect(t.unsupported === null).toBe(t.input !== null);
  });

  it('takes files for the local-upload types only, a folder for source archives and feature files', () => {
    const uploads = SOURCE_TYPES.filter((t) => t.upload).map((t) => t.code).sort((a, b) => a - b);
    expect(uploads).toEqual([...LOCAL_UPLOAD_CODE_TYPES]);
    for (const t of SOURCE_TYPES) if (t.upload) expect(t.upload.extensions.length, String(t.code)).toBeGreaterThan(0);
    expect(sourceTypeOf(0)?.upload?.extensions).toEqual(expect.arrayContaining(['.zip', '.tar.gz', '.7z']));
    expect(sourceTypeOf(30)?.upload?.extensions).toEqual(expect.arrayContaining(['.spdx.json', '.xml']));
    expect(sourceTypeOf(34)?.upload).toEqual({ extensions: ['.xlsx', '.xls', '.csv'], folders: false });
    expect(SOURCE_TYPES.filter((t) => t.upload?.folders).map((t) => t.code)).toEqual([0, 9]);
    // A folder given as a feature file's source becomes the feature file the desktop writes of it.
    expect(sourceTypeOf(0)?.upload?.folders).toBe('zip');
    expect(sourceTypeOf(9)?.upload?.folders).toBe('feature');
    expect(sourceTypeOf(2)?.upload).toBeNull();
    // 镜像特征文件: the feature file itself, or an image file / OCI folder the desktop writes it of.
    expect(sourceTypeOf(32)?.upload).toEqual({ extensions: ['.zip'], folders: false, imageFeature: ['.tar', '.tar.gz', '.tgz'] });
  });

  it('tells why a type cannot be analysed yet, in words that hold before and after the project is saved', () => {
    for (const code of ALL_CODE_TYPES) {
      const label = CODE_TYPE_LABEL[code];
      const expected = [0, 9, 12, 32, 16, 30, 34, 13, 14, 15, 31].includes(code) ? null
        : `代码来源“${label}”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传`;
      expect(unsupportedSource(code), String(code)).toBe(expected);
      expect(sourceTypeOf(code)?.unsupported).toBe(expected);
    }
    expect(unsupportedSource(99)).toBe('代码来源“--”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传');
  });
});
