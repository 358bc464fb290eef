// The source-type table (contract/sources.ts): every getCodeType once, in the form's groups, with
// the input kind the platform analyses, the exact message of a type it cannot analyse yet and the
// files a local upload takes.
import { describe, expect, it } from 'vitest';
import { ALL_CODE_TYPES, CODE_TYPE_LABEL, LOCAL_UPLOAD_CODE_TYPES } from '../../../contract/enums.ts';
import { inputKindOf, SOURCE_GROUPS, SOURCE_TYPES, sourceTypeOf, unsupportedSource } from '../../../contract/sources.ts';

describe('source types', () => {
  it('lists every getCodeType exactly once', () => {
    const codes = SOURCE_TYPES.map((t) => t.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort((a, b) => a - b)).toEqual(ALL_CODE_TYPES);
  });

  it('groups the codes as the new-project form shows them', () => {
    expect(SOURCE_GROUPS).toEqual([
      { label: '本地上传', codes: [0, 9, 16, 30, 34, 12, 32] },
      { label: '代码仓库', codes: [2, 4, 7, 10, 1, 3, 8, 39, 40, 5, 11, 33] },
      { label: '容器镜像', codes: [13, 14, 15, 31] },
      { label: '制品仓库', codes: [35, 17, 18, 36, 37] },
      { label: '其他', codes: [19, 38] },
    ]);
    expect([...SOURCE_GROUPS[0]!.codes].sort((a, b) => a - b)).toEqual([...LOCAL_UPLOAD_CODE_TYPES]);
  });

  it('analyses the local uploads of source, feature file, binary, SBOM and Excel list', () => {
    const analysed = Object.fromEntries(SOURCE_TYPES.filter((t) => t.input).map((t) => [t.code, t.input]));
    expect(analysed).toEqual({ 0: 'source', 9: 'feature', 16: 'binary', 30: 'sbom', 34: 'excel' });
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
    expect(sourceTypeOf(2)?.upload).toBeNull();
  });

  it('tells why a type cannot be analysed yet, in words that hold before and after the project is saved', () => {
    for (const code of ALL_CODE_TYPES) {
      const label = CODE_TYPE_LABEL[code];
      const expected = [0, 9, 16, 30, 34].includes(code) ? null
        : code === 12 || code === 32 ? `代码来源“${label}”的文件会随项目保存，容器镜像分析将在后续版本提供，暂时无法发起分析`
        : `代码来源“${label}”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传`;
      expect(unsupportedSource(code), String(code)).toBe(expected);
      expect(sourceTypeOf(code)?.unsupported).toBe(expected);
    }
    expect(unsupportedSource(99)).toBe('代码来源“--”暂不支持自动获取代码，将在后续版本提供，暂时无法发起分析；请改用本地上传');
  });
});
