// The source-type selects read the contract's table (contract/sources.ts): groups by what is
// analysed (源码 / 容器镜像 / 二进制 / SBOM / 清单), options named by where the source comes from
// (no raw codes), the types the platform cannot analyse yet marked where the user picks a type.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isLocalUploadType } from '../../../../contract/enums.ts';
import { codeTypeOptionLabel } from '../../../../renderer/features/project/tasks/projectForm.ts';
import { SourceTypeOptions } from '../../../../renderer/features/project/tasks/SourceTypeOptions.tsx';

/** The groups by what is analysed, one code per source, in the selects' order. */
const GROUPS = [
  { label: '源码', codes: [0, 2, 1, 39, 5, 11, 33, 35, 19] },
  { label: '容器镜像', codes: [12, 32, 13, 31, 14, 15] },
  { label: '二进制', codes: [16, 17, 18, 36, 38] },
  { label: 'SBOM', codes: [30] },
  { label: '清单', codes: [9, 34] },
];
const ANALYSED = [0, 12, 32, 9, 16, 30, 34, 13, 31, 14, 15];

interface Group { label: string; options: Array<{ value: number; text: string }> }

/** The optgroups and options of a select's markup. */
function optionsOf(markup: string): Group[] {
  return [...markup.matchAll(/<optgroup label="([^"]*)">(.*?)<\/optgroup>/g)].map(([, label, body]) => ({
    label: label!,
    options: [...body!.matchAll(/<option value="(\d+)">([^<]*)<\/option>/g)].map(([, value, text]) => ({ value: Number(value), text: text! })),
  }));
}

describe('source-type options', () => {
  it('list the groups by kind, each source once, named without codes (the task list filter)', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions /></select>));
    expect(groups).toEqual(GROUPS.map((g) => ({ label: g.label, options: g.codes.map((c) => ({ value: c, text: codeTypeOptionLabel(c) })) })));
    expect(groups[0]!.options.slice(0, 3)).toEqual([{ value: 0, text: '本地上传' }, { value: 2, text: 'Git' }, { value: 1, text: 'SVN' }]);
    for (const o of groups.flatMap((g) => g.options)) expect(o.text).not.toMatch(/\d（|（\d/);
  });

  it('mark the types the platform cannot analyse yet (the project form)', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions marked /></select>));
    expect(groups.map((g) => ({ label: g.label, codes: g.options.map((o) => o.value) }))).toEqual(GROUPS);
    for (const o of groups.flatMap((g) => g.options)) {
      expect(o.text, String(o.value)).toBe(ANALYSED.includes(o.value) ? codeTypeOptionLabel(o.value) : `${codeTypeOptionLabel(o.value)} · 暂未提供分析`);
    }
    expect(groups[0]!.options[1]).toEqual({ value: 2, text: 'Git · 暂未提供分析' });
  });

  it('show a stored alias code after its source, so an edited project keeps its value', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions marked current={7} /></select>));
    expect(groups[0]!.options.map((o) => o.value)).toEqual([0, 2, 7, 1, 39, 5, 11, 33, 35, 19]);
    expect(groups[0]!.options[2]!.text).toBe('Git · 暂未提供分析');
  });

  it('keep only the local-upload types for the batch import, in the selects\' order', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions only={isLocalUploadType} marked /></select>));
    expect(groups.map((g) => g.label)).toEqual(['源码', '容器镜像', '二进制', 'SBOM', '清单']);
    expect(groups.flatMap((g) => g.options.map((o) => o.value))).toEqual([0, 12, 32, 16, 30, 9, 34]);
  });
});
