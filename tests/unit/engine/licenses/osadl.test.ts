// The OSADL compatibility matrix as the first source of conflict verdicts: over the WHOLE shipped
// matrix, every pair OSADL decides with Yes or No gets the same verdict from checkCompatibility
// (leading licence = project's outbound licence, subordinate = the component's licence), with
// source `osadl` and a Chinese explanation; Check dependency says what to check; Unknown and pairs
// outside the matrix fall back to Cairn's own rules.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCompatibility } from '../../../../server/engine/matchers/licenses/conflicts.ts';
import { OSADL_LICENSES, OSADL_MATRIX_TIMESTAMP, osadlCell, osadlExplanation } from '../../../../server/engine/matchers/licenses/osadl.ts';

interface Matrix {
  timestamp: string;
  licenses: { name: string; compatibilities: { name: string; compatibility: string; explanation: string }[] }[];
}
const shipped: Matrix = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../resources/osadl/matrixseqexpl.json', import.meta.url)), 'utf8'));
const cells = shipped.licenses.flatMap((row) => row.compatibilities.map((cell) => ({ leading: row.name, ...cell })));
const CHINESE = /[\u4e00-\u9fff]/;

describe('OSADL 矩阵（resources/osadl）', () => {
  it('随应用提供完整矩阵：121 个许可证，每行覆盖每个许可证', () => {
    expect(OSADL_MATRIX_TIMESTAMP).toBe(shipped.timestamp);
    expect(OSADL_LICENSES).toHaveLength(shipped.licenses.length);
    expect(shipped.licenses.length).toBeGreaterThanOrEqual(120);
    for (const row of shipped.licenses) expect(row.compatibilities.map((c) => c.name).sort(), row.name).toEqual([...OSADL_LICENSES].sort());
  });

  it('整个矩阵：OSADL 判定 Yes / No 的每一对，Cairn 的结论都与之相同且注明依据 OSADL', () => {
    const decided = cells.filter((c) => c.compatibility === 'Yes' || c.compatibility === 'No');
    expect(decided.length).toBeGreaterThan(13000);
    const wrong: string[] = [];
    for (const cell of decided) {
      const result = checkCompatibility(cell.leading, cell.name);
      const expected = cell.compatibility === 'Yes' ? 'compatible' : 'incompatible';
      if (result.verdict !== expected || result.source !== 'osadl' || !CHINESE.test(result.explanation)) {
        wrong.push(`${cell.leading} <- ${cell.name}: OSADL ${cell.compatibility}, Cairn ${result.verdict} (${result.source})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('Same 为兼容；Check dependency 为待确认并用中文说明要核对什么', () => {
    for (const cell of cells.filter((c) => c.compatibility === 'Same')) {
      expect(checkCompatibility(cell.leading, cell.name)).toMatchObject({ verdict: 'compatible', source: 'osadl' });
    }
    const dependent = cells.filter((c) => c.compatibility === 'Check dependency');
    expect(dependent.length).toBeGreaterThan(50);
    for (const cell of dependent) {
      const result = checkCompatibility(cell.leading, cell.name);
      expect(result, `${cell.leading} <- ${cell.name}`).toMatchObject({ verdict: 'check', source: 'osadl', rule: 'osadl:Check dependency' });
      expect(result.explanation).toContain('动态链接');
      expect(result.explanation).toContain('请核对');
    }
  });

  it('OSADL 每条 Yes / No / Check dependency 说明都有对应的中文译文（不落入通用句）', () => {
    for (const cell of cells.filter((c) => c.compatibility !== 'Unknown')) {
      const text = osadlExplanation(osadlCell(cell.leading, cell.name)!);
      expect(text, `${cell.leading} <- ${cell.name}`).not.toBeNull();
      expect(text!).toMatch(CHINESE);
      expect(text!.endsWith('。'), `${cell.leading} <- ${cell.name}`).toBe(true);
    }
  });

  it('OSADL 判定为 Unknown 的一对由 Cairn 规则判断', () => {
    const unknown = cells.filter((c) => c.compatibility === 'Unknown');
    expect(unknown.length).toBeGreaterThan(0);
    for (const cell of unknown) expect(checkCompatibility(cell.leading, cell.name).source, `${cell.leading} <- ${cell.name}`).toBe('cairn');
  });
});

describe('方向与 id 规范化', () => {
  it('方向：项目（出站）许可证为 OSADL 的主导许可证，组件许可证为从属许可证', () => {
    expect(osadlCell('0BSD', 'AGPL-3.0-only')!.compatibility).toBe('No');
    expect(checkCompatibility('0BSD', 'AGPL-3.0-only')).toMatchObject({ verdict: 'incompatible', source: 'osadl' });
    expect(checkCompatibility('AGPL-3.0-only', '0BSD')).toMatchObject({ verdict: 'compatible', source: 'osadl' });
  });

  it('已弃用的 GPL-2.0 / GPL-2.0+ 与 -only / -or-later 同义，大小写不敏感', () => {
    for (const [deprecated, current] of [
      ['GPL-2.0', 'GPL-2.0-only'],
      ['GPL-2.0+', 'GPL-2.0-or-later'],
      ['LGPL-2.1+', 'LGPL-2.1-or-later'],
      ['AGPL-3.0', 'AGPL-3.0-only'],
      ['gpl-3.0-or-later', 'GPL-3.0-or-later'],
      ['GPL-2.0-with-classpath-exception', 'GPL-2.0-only WITH Classpath-exception-2.0'],
    ]) {
      // Same decision; the explanation may quote the id as written.
      const decision = (outbound: string, inbound: string) => {
        const { verdict, source, rule } = checkCompatibility(outbound, inbound);
        return { verdict, source, rule };
      };
      for (const other of ['MIT', 'Apache-2.0', 'GPL-3.0-only', 'LGPL-2.1-only']) {
        expect(decision(other, deprecated!), `${other} <- ${deprecated}`).toEqual(decision(other, current!));
        expect(decision(deprecated!, other), `${deprecated} <- ${other}`).toEqual(decision(current!, other));
        expect(decision(other, deprecated!).source, `${other} <- ${deprecated}`).toBe('osadl');
      }
    }
  });

  it('非 GNU 许可证的 +：OSADL 对每个可选版本都有判定时取最优版本，否则按 Cairn 规则', () => {
    const mpl = checkCompatibility('GPL-3.0-only', 'MPL-1.1+');
    expect(mpl).toMatchObject({ verdict: 'compatible', source: 'osadl' });
    expect(mpl.explanation).toMatch(/^MPL-1\.1\+ 允许选择 MPL-2\.0：/);
    expect(checkCompatibility('GPL-3.0-only', 'MPL-1.1')).toMatchObject({ verdict: 'incompatible', source: 'osadl' });
    expect(checkCompatibility('GPL-2.0-only', 'EUPL-1.1+')).toMatchObject({ verdict: 'compatible', source: 'osadl' });
    // CC-BY-4.0 is not in the matrix: the whole `+` term is Cairn's.
    expect(checkCompatibility('MIT', 'CC-BY-3.0+').source).toBe('cairn');
  });

  it('OSADL 之外的许可证、例外与闭源项目仍按 Cairn 规则判断', () => {
    expect(checkCompatibility('NONE', 'GPL-3.0-only')).toMatchObject({ verdict: 'incompatible', source: 'cairn' });
    expect(checkCompatibility('MIT', 'CC-BY-NC-4.0').source).toBe('cairn');
    expect(checkCompatibility('GPL-2.0-only', 'Apache-2.0 WITH LLVM-exception')).toMatchObject({ verdict: 'compatible', source: 'cairn' });
    expect(checkCompatibility('MIT', 'LicenseRef-acme').source).toBe('cairn');
  });

  it('OSADL 持有而 Cairn 模型没有的许可证也能判断', () => {
    expect(checkCompatibility('GPL-2.0-only', 'Sleepycat')).toMatchObject({ source: 'osadl' });
    expect(checkCompatibility('MIT', 'blessing')).toMatchObject({ verdict: 'compatible', source: 'osadl' });
  });

  it('OSADL 的结论之外，附上 Cairn 规则的使用条件或复核参考，结论不变', () => {
    const mpl = checkCompatibility('GPL-2.0-or-later', 'MPL-2.0');
    expect(mpl).toMatchObject({ verdict: 'compatible', source: 'osadl' });
    expect(mpl.explanation).toContain('使用条件（Cairn 规则）：');
    expect(mpl.explanation).toContain('次级许可证');
    const lgpl = checkCompatibility('MIT', 'LGPL-2.1-only');
    expect(lgpl).toMatchObject({ verdict: 'incompatible', source: 'osadl' });
    expect(lgpl.explanation).toMatch(/^LGPL-2\.1-only 是 Copyleft 许可证.*供人工复核参考（Cairn 规则）：.*动态链接时可用：该库保持 LGPL-2\.1 授权，MIT 项目/);
    expect(checkCompatibility('GPL-3.0-or-later', 'Apache-2.0').explanation).not.toContain('Cairn');
  });

  it('OR 选择仍优先无条件兼容的选项', () => {
    expect(checkCompatibility('GPL-2.0-or-later', 'MPL-2.0 OR MIT')).toMatchObject({ verdict: 'compatible', chosen: 'MIT', source: 'osadl' });
  });

  it('组合表达式沿用决定结论那一对的依据', () => {
    expect(checkCompatibility('MIT', 'GPL-2.0-only OR BSD-3-Clause')).toMatchObject({ verdict: 'compatible', chosen: 'BSD-3-Clause', source: 'osadl' });
    expect(checkCompatibility('MIT', 'BSD-3-Clause AND CC-BY-NC-4.0')).toMatchObject({ verdict: 'incompatible', source: 'cairn' });
  });
});
