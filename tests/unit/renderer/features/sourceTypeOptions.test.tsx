// The source-type selects read the contract's table (contract/sources.ts): the same groups, order
// and labels the renderer listed before the table moved to the contract, with the types the
// platform cannot analyse yet marked where the user picks a type for a new project.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { isLocalUploadType } from '../../../../contract/enums.ts';
import { codeTypeOptionLabel } from '../../../../renderer/features/project/tasks/projectForm.ts';
import { SourceTypeOptions } from '../../../../renderer/features/project/tasks/SourceTypeOptions.tsx';

/** The groups and codes the renderer listed before the table moved to the contract. */
const FORMER_GROUPS = [
  { label: '本地上传', codes: [0, 9, 16, 30, 34, 12, 32] },
  { label: '代码仓库', codes: [2, 4, 7, 10, 1, 3, 8, 39, 40, 5, 11, 33] },
  { label: '容器镜像', codes: [13, 14, 15, 31] },
  { label: '制品仓库', codes: [35, 17, 18, 36, 37] },
  { label: '其他', codes: [19, 38] },
];
const ANALYSED = [0, 9, 16, 30, 34];

interface Group { label: string; options: Array<{ value: number; text: string }> }

/** The optgroups and options of a select's markup. */
function optionsOf(markup: string): Group[] {
  return [...markup.matchAll(/<optgroup label="([^"]*)">(.*?)<\/optgroup>/g)].map(([, label, body]) => ({
    label: label!,
    options: [...body!.matchAll(/<option value="(\d+)">([^<]*)<\/option>/g)].map(([, value, text]) => ({ value: Number(value), text: text! })),
  }));
}

describe('source-type options', () => {
  it('list the former groups, in the same order, with the same labels (the task list filter)', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions /></select>));
    expect(groups).toEqual(FORMER_GROUPS.map((g) => ({ label: g.label, options: g.codes.map((c) => ({ value: c, text: codeTypeOptionLabel(c) })) })));
  });

  it('mark the types the platform cannot analyse yet (the project form)', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions marked /></select>));
    expect(groups.map((g) => ({ label: g.label, codes: g.options.map((o) => o.value) }))).toEqual(FORMER_GROUPS);
    for (const o of groups.flatMap((g) => g.options)) {
      expect(o.text, String(o.value)).toBe(ANALYSED.includes(o.value) ? codeTypeOptionLabel(o.value) : `${codeTypeOptionLabel(o.value)} · 暂未提供分析`);
    }
    expect(groups[1]!.options[0]).toEqual({ value: 2, text: '源码-Git（2） · 暂未提供分析' });
  });

  it('keep only the local-upload types for the batch import, in the form order', () => {
    const groups = optionsOf(renderToStaticMarkup(<select><SourceTypeOptions only={isLocalUploadType} marked /></select>));
    expect(groups.map((g) => g.label)).toEqual(['本地上传']);
    expect(groups[0]!.options.map((o) => o.value)).toEqual([0, 9, 16, 30, 34, 12, 32]);
  });
});
