import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_SUCCESS_MESSAGES, HTTP_STATUS_MESSAGES, SUCCESS_MESSAGES, batchImportResultMessage, batchLaunchResultMessage,
  displayServerMessage, endsSession, isSessionInvalid, messageForEnvelope, messageForHttpError, serverMessageOf,
  snippetMatchedMessage, taskLaunchSucceeded, unauthorizedRedirect, userDeletionWarning,
} from '../../../contract/errors.ts';

/**
 * The HTTP status table of the spec's error catalogue (document 1 §8), read from the document:
 * status -> the message its row starts with (a row may go on in English: `请求地址出错, plus the URL`).
 */
function specHttpStatusMessages(): Record<string, string> {
  const document = readFileSync(join(import.meta.dirname, '../../../../shared/spec/000_42d7c7d152592e51.txt'), 'utf8');
  const table = document.slice(document.indexOf('HTTP statuses:'), document.indexOf('The server errMessage'));
  const rows = [...table.matchAll(/^\| (\d{3}) \| (.+?) \|$/gm)];
  return Object.fromEntries(rows.map(([, status, cell]) => [status!, cell!.split(/[.,] /)[0]!]));
}

describe('HTTP errors', () => {
  it('has the catalogue of document 1 §8 verbatim', () => {
    const spec = specHttpStatusMessages();
    expect(Object.keys(spec)).toHaveLength(11);
    expect(HTTP_STATUS_MESSAGES).toEqual(spec);
  });

  it('maps every catalogued status to its message, the URL appended for 404', () => {
    for (const [status, message] of Object.entries(HTTP_STATUS_MESSAGES)) {
      expect(messageForHttpError(Number(status), '/api/x')).toBe(status === '404' ? `${message}: /api/x` : message);
    }
  });

  it('maps statuses, appending the URL for 404', () => {
    expect(messageForHttpError(400, '/api/x')).toBe('请求错误');
    expect(messageForHttpError(401, '/api/x')).toBe('未授权，请登录');
    expect(messageForHttpError(404, '/api/subject/3')).toBe('请求地址出错: /api/subject/3');
    expect(messageForHttpError(404, '')).toBe('请求地址出错');
    expect(messageForHttpError(505, '/api/x')).toBe('HTTP版本不受支持');
  });

  it('prefers the server message and maps Permission denied', () => {
    expect(messageForHttpError(500, '/api/x', '磁盘空间不足')).toBe('磁盘空间不足');
    expect(messageForHttpError(404, '/api/x', '项目不存在')).toBe('项目不存在');
    expect(messageForHttpError(403, '/api/x', 'Permission denied')).toBe('用户无权查看当前项目');
    expect(messageForHttpError(500, '/api/x', '')).toBe('服务器内部错误');
    expect(messageForHttpError(500, '/api/x', null)).toBe('服务器内部错误');
  });

  it('falls back to 请求失败，请重试！', () => {
    expect(messageForHttpError(418, '/api/x')).toBe('请求失败，请重试！');
    expect(messageForHttpError(0, '/api/x')).toBe('请求失败，请重试！');
  });

  it('reads errMessage before message from an error body', () => {
    expect(serverMessageOf({ errMessage: '甲', message: '乙' })).toBe('甲');
    expect(serverMessageOf({ errMessage: '', message: '乙' })).toBe('乙');
    expect(serverMessageOf({})).toBeNull();
    expect(serverMessageOf('text')).toBeNull();
    expect(serverMessageOf(null)).toBeNull();
  });

  it('redirects a 401 to the address in the data, else the stored failure URL', () => {
    expect(unauthorizedRedirect('https://sso.example.com/login', '/failed')).toBe('https://sso.example.com/login');
    expect(unauthorizedRedirect(null, '/failed')).toBe('/failed');
    expect(unauthorizedRedirect({ a: 1 }, '')).toBeNull();
  });
});

describe('envelopes', () => {
  it('shows the message or 请求失败，请稍后重试', () => {
    expect(messageForEnvelope({ code: 0, message: '名称已存在' })).toBe('名称已存在');
    expect(messageForEnvelope({ code: 0 })).toBe('请求失败，请稍后重试');
    expect(messageForEnvelope({ code: 2, message: '' })).toBe('请求失败，请稍后重试');
    expect(messageForEnvelope({ code: 0, message: null })).toBe('请求失败，请稍后重试');
    expect(messageForEnvelope({ code: 0, message: 'Permission denied' })).toBe('用户无权查看当前项目');
    expect(displayServerMessage('其他')).toBe('其他');
  });

  it('treats code 3 as an invalid session, except a failed login', () => {
    expect(isSessionInvalid(3)).toBe(true);
    expect(isSessionInvalid(1)).toBe(false);
    expect(isSessionInvalid(0)).toBe(false);
    expect(endsSession({ code: 3, message: '会话已失效' })).toBe(true);
    expect(endsSession({ code: 3 })).toBe(true);
    expect(endsSession({ code: 3, message: '用户名或密码错误' })).toBe(false);
    expect(endsSession({ code: 0, message: 'x' })).toBe(false);
  });

  it('reports task launch success only for the message SUCCESS', () => {
    expect(taskLaunchSucceeded({ code: 1, message: 'SUCCESS' })).toBe(true);
    expect(taskLaunchSucceeded({ code: 1, message: '可用次数不足' })).toBe(false);
    expect(taskLaunchSucceeded({ code: 0, message: 'SUCCESS' })).toBe(false);
  });

  it('turns a user-deletion answer other than SUCCESS into a warning', () => {
    expect(userDeletionWarning('SUCCESS')).toBeNull();
    expect(userDeletionWarning('用户存在项目，无法删除')).toBe('用户存在项目，无法删除');
    expect(userDeletionWarning('')).toBe('请求失败，请稍后重试');
  });
});

describe('success messages', () => {
  it('quotes document 1 verbatim', () => {
    expect(SUCCESS_MESSAGES.saved).toBe('保存成功！');
    expect(SUCCESS_MESSAGES.modified).toBe('修改成功');
    expect(SUCCESS_MESSAGES.passwordModified).toBe('修改成功，请用新密码登录');
    expect(SUCCESS_MESSAGES.deleted).toBe('删除成功！');
    expect(SUCCESS_MESSAGES.added).toBe('添加成功！');
    expect(SUCCESS_MESSAGES.taskLaunched).toBe('任务发起成功！');
    expect(SUCCESS_MESSAGES.submitted).toBe('提交成功！');
    expect(SUCCESS_MESSAGES.done).toBe('操作成功！');
    expect(SUCCESS_MESSAGES.transferred).toBe('转移成功！');
    expect(SUCCESS_MESSAGES.reportSubmitted).toBe('报告生成提交成功，生成完成之后可在报告管理中下载。');
    expect(SUCCESS_MESSAGES.changeLogExported).toBe('操作成功，请在离线变更影响记录中查看！');
  });

  it('quotes document 2 verbatim', () => {
    expect(Object.values(ADMIN_SUCCESS_MESSAGES)).toEqual([
      '操作成功', '删除成功', '添加成功', '修改成功', '保存成功', '发送成功', '同步成功', '移除成功', '转移成功', '已发起检查',
      '任务发起成功', '已上线', '已下线', '重启成功', '已添加选中成员', '入库拦截配置成功', '模板导入成功，导入结果请查看导入记录',
      '报告生成提交成功，生成完成之后可在报告管理中下载', '若修改分配角色，用户需重新登录才可生效',
      '若修改角色权限或数据权限，用户需重新登录才可生效', '操作成功，请在离线变更影响记录中查看！',
    ]);
  });

  it('fills the batch result templates', () => {
    expect(batchImportResultMessage(3, 1)).toBe('批量导入项目完成，成功：3个， 失败：1个');
    expect(batchImportResultMessage(0, 0)).toBe('批量导入项目完成，成功：0个， 失败：0个');
    expect(batchLaunchResultMessage(12, 0)).toBe('批量任务发起完成，成功：12个， 失败：0个');
    expect(batchLaunchResultMessage(Number.NaN, -2)).toBe('批量任务发起完成，成功：0个， 失败：0个');
  });

  it('words the snippet matched status change', () => {
    expect(snippetMatchedMessage(2)).toBe('已忽略');
    expect(snippetMatchedMessage(3)).toBe('已确认');
    expect(snippetMatchedMessage(1)).toBe('已取消');
  });
});
