// Levels and exploit difficulty from CVSS v2, v3.x and v4 vectors (scored by the calculator) and
// from severity words when no vector is given.
import { describe, expect, it } from 'vitest';
import { assessSeverity, exploitOf, levelOfScore, levelOfWord, scoreVector } from '../../../../server/engine/matchers/severity.ts';

describe('CVSS 等级与利用难度', () => {
  it('按向量计算基础分', () => {
    expect(scoreVector('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(9.8);
    expect(scoreVector('CVSS:3.0/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N')).toBe(3.1);
    expect(scoreVector('AV:N/AC:L/Au:N/C:P/I:P/A:P')).toBe(7.5);
    expect(scoreVector('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')).toBe(9.3);
    expect(scoreVector('CVSS:3.1/AV:N/garbage')).toBeNull();
  });

  it('分数分档：v3/v4 有超危，v2 没有', () => {
    expect(levelOfScore(9.8, '3.1')).toBe(1);
    expect(levelOfScore(9.8, '2')).toBe(2);
    expect(levelOfScore(7.0, '3.1')).toBe(2);
    expect(levelOfScore(4.0, '3.1')).toBe(4);
    expect(levelOfScore(0.1, '3.1')).toBe(8);
    expect(levelOfScore(0, '3.1')).toBe(16);
  });

  it('取最新版本的 CVSS；没有向量时用严重程度文字', () => {
    const a = assessSeverity([{ vector: 'AV:N/AC:L/Au:N/C:C/I:C/A:C' }, { vector: 'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N' }]);
    expect(a).toMatchObject({ version: '3.1', level: 8, exploit: 4 });
    expect(assessSeverity([], 'MODERATE')).toEqual({ level: 4, score: null, vector: null, version: null, exploit: 16, source: '数据库评级 MODERATE' });
    expect(assessSeverity([{ vector: 'not a vector' }], 'critical').level).toBe(1);
    expect(levelOfWord('whatever')).toBe(16);
  });

  it('利用难度：低复杂度、无需权限和交互为容易；高复杂度为困难', () => {
    expect(exploitOf('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(1);
    expect(exploitOf('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H')).toBe(2);
    expect(exploitOf('CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(4);
    expect(exploitOf('AV:N/AC:L/Au:N/C:P/I:P/A:P')).toBe(1);
    expect(exploitOf('AV:N/AC:M/Au:S/C:P/I:P/A:P')).toBe(2);
    expect(exploitOf('CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')).toBe(4);
    expect(exploitOf(null)).toBe(16);
  });
});
