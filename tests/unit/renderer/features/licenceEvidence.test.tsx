// The licence tab's confidence pieces (renderer/features/project/analysis/tabs/licenceEvidence.tsx):
// the list query and report body of the 识别方式 / 最低可信度 filters, the evidence's line numbers
// and caption, and what a place, its evidence and a modified licence text render to.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  confidenceQuery, EvidenceBlock, evidenceCaption, evidenceNumbers, isModified, KIND_CODES, KindScore, kindsInWords, ModifiedMark, reportConfidence, scoreIntent,
} from '../../../../renderer/features/project/analysis/tabs/licenceEvidence.tsx';
import type { LicenseFileRef } from '../../../../contract/api/result/index.ts';

const place = (over: Partial<LicenseFileRef> = {}): LicenseFileRef => ({
  file: 'LICENSE', startLine: 1, endLine: 201, source: 'text', score: 98, evidence: ['Apache License', 'Version 2.0, January 2004'], nearest: null, ...over,
});

describe('licence confidence filters', () => {
  it('asks for the chosen kinds in the filter order, and nothing for none or all', () => {
    expect(KIND_CODES).toEqual(['text', 'header', 'reference', 'tag', 'declared']);
    expect(confidenceQuery(['tag', 'text'], 0)).toEqual({ kinds: 'text,tag' });
    expect(confidenceQuery([], 0)).toEqual({});
    expect(confidenceQuery([...KIND_CODES], 0)).toEqual({});
    expect(confidenceQuery([], 80)).toEqual({ minScore: 80 });
    expect(reportConfidence(['reference', 'text'], 60)).toEqual({ licenceKinds: ['text', 'reference'], minScore: 60 });
    expect(reportConfidence([], 0)).toEqual({});
    expect(kindsInWords(['declared', 'header'])).toBe('声明头、包元数据声明');
  });

  it('colours scores: sure, likely, doubtful', () => {
    expect(scoreIntent(100)).toBe('success');
    expect(scoreIntent(90)).toBe('success');
    expect(scoreIntent(75)).toBe('none');
    expect(scoreIntent(50)).toBe('warning');
  });
});

describe('licence evidence', () => {
  it('numbers the lines with the file\'s own when they are the whole range, else says which they are', () => {
    expect(evidenceNumbers(place({ startLine: 7, endLine: 7, evidence: ['// SPDX-License-Identifier: MIT'] }))).toEqual([7]);
    expect(evidenceNumbers(place({ startLine: 2, endLine: 4, evidence: ['a', 'b', 'c'] }))).toEqual([2, 3, 4]);
    // Blank lines were left out: only the first line's number is certain.
    expect(evidenceNumbers(place())).toEqual([1, null]);
    // A modified text's lines are those that differ: none is numbered.
    expect(evidenceNumbers(place({ nearest: 'MIT' }))).toEqual([null, null]);
    expect(evidenceCaption(place({ startLine: 7, endLine: 7, evidence: ['x'] }))).toBe('第 7 行');
    expect(evidenceCaption(place())).toBe('第 1–201 行中的前 2 个非空行');
    expect(evidenceCaption(place({ nearest: 'MIT', startLine: 1, endLine: 21 }))).toBe('第 1–21 行中与标准文本不同的行');
  });

  it('renders a place\'s kind and score, and its evidence in numbered monospace lines', () => {
    const tags = renderToStaticMarkup(<KindScore place={{ source: 'header', score: 91 }} />);
    expect(tags).toContain('声明头');
    expect(tags).toContain('可信度 91');
    const block = renderToStaticMarkup(<EvidenceBlock place={place({ file: 'src/a.js', startLine: 3, endLine: 3, source: 'tag', score: 100, evidence: ['// SPDX-License-Identifier: MIT'] })} />);
    expect(block).toContain('src/a.js:3');
    expect(block).toContain('SPDX 标签');
    expect(block).toMatch(/<li><span class="cairn-evidence-no"[^>]*>3<\/span><code>\/\/ SPDX-License-Identifier: MIT<\/code><\/li>/);
    // Nothing kept (declared, or analysed before evidence was kept): says so rather than an empty box.
    const none = renderToStaticMarkup(<EvidenceBlock place={place({ source: 'declared', score: 100, evidence: [], startLine: null, endLine: null })} />);
    expect(none).toContain('包元数据声明');
    expect(none).toContain('未保存识别依据');
    expect(none).not.toContain('<ol');
  });

  it('marks a modified licence text with its nearest standard licence', () => {
    expect(isModified('LicenseRef-Cairn-modified-MIT')).toBe(true);
    expect(isModified('LicenseRef-acme')).toBe(false);
    const mark = renderToStaticMarkup(<ModifiedMark nearest="MIT" />);
    expect(mark).toContain('修改过的许可证文本');
    expect(mark).toContain('最接近的标准许可证：MIT');
  });
});
