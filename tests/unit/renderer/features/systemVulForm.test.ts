// The system vulnerability dialog's form: payloads (blank fields out, lists split, empty package
// rows ignored) and the form of an existing entry.
import { describe, expect, it } from 'vitest';
import type { VulnerabilityDetail } from '../../../../contract/api/vulnerability.ts';
import { addPayload, checkForm, ecosystemFor, editPayload, emptyForm, fieldOfMessage, formOf, splitLines, splitWords } from '../../../../renderer/features/system/knowledgeBase/systemVulForm.ts';

describe('systemVulForm', () => {
  it('only the name is required on the client', () => {
    expect(checkForm(emptyForm(), { nameRequired: '请输入漏洞名称' })).toEqual({ name: '请输入漏洞名称' });
    expect(checkForm({ ...emptyForm(), name: 'x' }, { nameRequired: '请输入漏洞名称' })).toEqual({});
  });

  it('splits lists: words by commas (also full-width) and spaces, lines for constraints', () => {
    expect(splitWords('GHSA-1，GHSA-2, GHSA-1\nGHSA-3')).toEqual(['GHSA-1', 'GHSA-2', 'GHSA-3']);
    expect(splitLines('>=1.0.0, <1.2.3\n\n [2.0,3.0) ')).toEqual(['>=1.0.0, <1.2.3', '[2.0,3.0)']);
  });

  it('a blank form gives the name and no packages; blank package rows are ignored', () => {
    expect(addPayload({ ...emptyForm(), name: ' 漏洞 ' })).toEqual({ name: '漏洞', packages: [] });
  });

  it('builds the add payload', () => {
    const payload = addPayload({
      ...emptyForm(),
      identify: 'CVE-2099-0001',
      name: '示例漏洞',
      description: '说明',
      level: '2',
      exploit: '1',
      cve: 'CVE-2099-0001',
      aliases: 'GHSA-aaaa-bbbb-cccc',
      cwes: '79, cwe-89',
      packages: [{ ecosystem: 'maven', name: 'g:a', vulnerable: '>=1.0, <1.5\n[2.0,2.3)', fixed: '1.5, 2.3' }],
      references: 'https://example.com/a\nhttps://example.com/b',
      fixCommits: '',
      published: '2026-01-02',
    });
    expect(payload).toEqual({
      identify: 'CVE-2099-0001',
      name: '示例漏洞',
      description: '说明',
      level: 2,
      exploit: 1,
      cve: 'CVE-2099-0001',
      aliases: ['GHSA-aaaa-bbbb-cccc'],
      cwes: ['CWE-79', 'CWE-89'],
      packages: [{ ecosystem: 'maven', name: 'g:a', vulnerable: ['>=1.0, <1.5', '[2.0,2.3)'], fixed: ['1.5', '2.3'] }],
      references: ['https://example.com/a', 'https://example.com/b'],
      published: '2026-01-02',
    });
    expect(editPayload(7, { ...emptyForm(), identify: 'ignored', name: 'n' })).toEqual({ id: 7, name: 'n', packages: [] });
  });

  it('reads an existing entry back into the form', () => {
    const v = {
      id: 3, identify: 'CAIRN-2026-0001', cve: 'CVE-2099-0002', cnnvd: null, cnvd: null, name: '名', level: 2, score: 7.5,
      vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', exploit: 1, published: '2026-01-02T00:00:00.000Z', modified: null, withdrawn: null,
      source: 'custom', origin: 'custom', involvedSubjects: 0, aliases: ['CVE-2099-0002', 'GHSA-x'], details: '描述', cvssVersion: '3.1', severitySource: 'CVSS:3.1 系统漏洞库 7.5', cwes: ['CWE-79'],
      weaknesses: [{ id: 'CWE-79', name: null }], cnnvdIds: [], cnvdIds: [],
      references: [{ type: 'WEB', url: 'https://e.com', group: 'web' }], severities: [], fixCommits: ['https://g.com/c/1'],
      affected: [{ ecosystem: 'Go', distribution: null, name: 'github.com/x/y', affected: ['<1.2.0'], ranges: [], versions: [], vulnerable: ['<1.2.0'], patched: [], fixed: ['1.2.0'], fixState: null }],
      createdAt: '', updatedAt: '',
    } as VulnerabilityDetail;
    const form = formOf(v);
    expect(form).toMatchObject({ identify: 'CAIRN-2026-0001', level: '', exploit: '', aliases: 'GHSA-x', cwes: 'CWE-79', references: 'https://e.com', fixCommits: 'https://g.com/c/1', published: '2026-01-02' });
    expect(form.packages).toEqual([{ ecosystem: 'golang', name: 'github.com/x/y', vulnerable: '<1.2.0', fixed: '1.2.0' }]);
    expect(formOf({ ...v, vector: null }).level).toBe('2');
    expect(ecosystemFor('PyPI')).toBe('pypi');
    expect(ecosystemFor('crates.io')).toBe('cargo');
    expect(ecosystemFor('Whatever')).toBe('generic');
  });

  it('marks the field a refusal of the platform is about', () => {
    expect(fieldOfMessage('CVE 编号格式不正确，应如 CVE-2021-44228')).toBe('cve');
    expect(fieldOfMessage('CNNVD 编号格式不正确，应如 CNNVD-202112-799')).toBe('cnnvd');
    expect(fieldOfMessage('漏洞编号 CVE-2021-44228 已存在')).toBe('identify');
    expect(fieldOfMessage('请选择漏洞等级或填写 CVSS 向量')).toBe('level');
    expect(fieldOfMessage('CVSS 向量无效，请填写完整的 CVSS v2、v3 或 v4 向量')).toBe('vector');
    expect(fieldOfMessage('组件 g:a 的受影响版本「x」无法解析')).toBe('packages');
    expect(fieldOfMessage('请求失败，请稍后重试')).toBeNull();
  });
});
