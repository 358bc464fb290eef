// What a failed run or report tells the user: a UserError's own message (also after crossing a
// worker thread), anything else only as an internal failure under 分析失败 / 报告生成失败 — the
// characters of a message no longer decide it.
import { describe, expect, it } from 'vitest';
import { fromThreadError, isUserError, toThreadError, UserError } from '../../../../server/errors.ts';
import { ExtractError, UnpackError } from '../../../../server/engine/index.ts';
import { RunError } from '../../../../server/jobs/execute-run.ts';
import { reportFailureMessage } from '../../../../server/jobs/report-queue.ts';
import { runFailureMessage } from '../../../../server/jobs/run-queue.ts';

describe('run failure messages', () => {
  it('shows a UserError as it is', () => {
    expect(runFailureMessage(new UserError('上传的文件 a.txt 不是可识别的压缩包'))).toBe('上传的文件 a.txt 不是可识别的压缩包');
    expect(runFailureMessage(new RunError('任务已被暂停或停止', 'conflict'))).toBe('任务已被暂停或停止');
    expect(runFailureMessage(new UnpackError('ratio', '压缩比异常，疑似压缩炸弹，已拒绝'))).toBe('压缩比异常，疑似压缩炸弹，已拒绝');
    expect(runFailureMessage(new ExtractError('SBOM 文件 x.bin 的格式无法识别'))).toBe('SBOM 文件 x.bin 的格式无法识别');
  });

  it('does not show any other error as the user’s message, even one written in Chinese', () => {
    expect(runFailureMessage(new Error('数据库连接已断开'))).toBe('分析失败：数据库连接已断开');
    expect(runFailureMessage(new TypeError("Cannot read properties of undefined (reading 'purl')"))).toBe("分析失败：Cannot read properties of undefined (reading 'purl')");
    expect(runFailureMessage('boom')).toBe('分析失败：boom');
  });

  it('keeps the difference across a worker thread', () => {
    const user = fromThreadError(structuredClone(toThreadError(new UnpackError('corrupt', '压缩包已损坏：unexpected end of file'))));
    expect(isUserError(user)).toBe(true);
    expect(runFailureMessage(user)).toBe('压缩包已损坏：unexpected end of file');
    const internal = fromThreadError(structuredClone(toThreadError(new Error('内部断言失败'))));
    expect(isUserError(internal)).toBe(false);
    expect(runFailureMessage(internal)).toBe('分析失败：内部断言失败');
  });
});

describe('report failure messages', () => {
  it('shows a UserError as it is and anything else under 报告生成失败', () => {
    expect(reportFailureMessage(new UserError('报告对应的检测任务已被删除', 'not-found'))).toBe('报告对应的检测任务已被删除');
    expect(reportFailureMessage(new Error('写入失败'))).toBe('报告生成失败：写入失败');
    expect(reportFailureMessage(new Error('EACCES: permission denied'))).toBe('报告生成失败：EACCES: permission denied');
  });
});
