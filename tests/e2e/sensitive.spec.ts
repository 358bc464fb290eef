// 敏感信息 end to end on a freshly started embedded platform at 1440×900: /system/sensitive lists
// the built-in rules (not deletable), refuses a catastrophic pattern beside its field, adds an
// administrator's rule and turns a built-in one off; a binary 应用's upload (an ELF compiled here,
// or a real binary with strings appended, plus a config file) analysed with 敏感信息检测 shows its
// findings in the task's 敏感信息 tab, secrets masked, filtered by type; the rule is then deleted.
// Screenshots go to test-results/sensitive-*.png.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { call, platformSession } from './platform-session.ts';
import { waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/sensitive-${name}.png`;
const PASSWORD = 'Sup3r' + 'Secr3t!';
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
const work = mkdtempSync(path.join(tmpdir(), 'cairn-e2e-leaks-'));
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

function firmwareZip(): string {
  const src = path.join(work, 'src');
  mkdirSync(path.join(src, 'bin'), { recursive: true });
  mkdirSync(path.join(src, 'conf'), { recursive: true });
  const agent = path.join(src, 'bin', 'agent');
  const strings = ['http://nexus.corp.local:8081/repo/', `password=${PASSWORD}`, AWS, '/home/builder/work/agent/main.c', 'TICKET-77123'];
  try {
    const c = path.join(work, 'agent.c');
    writeFileSync(c, `#include <stdio.h>\n${strings.map((s, i) => `static const char *s${i} = "${s}";`).join('\n')}\nint main(void) { ${strings.map((_, i) => `puts(s${i});`).join(' ')} return 0; }\n`);
    execFileSync('cc', ['-O0', '-o', agent, c]);
  } catch {
    copyFileSync('/bin/true', agent);
    writeFileSync(agent, `\0${strings.join('\0')}\0`, { flag: 'a' });
  }
  writeFileSync(path.join(src, 'conf', 'app.properties'), 'db.url=jdbc:postgresql://10.12.0.5:5432/app\nowner=ops-team@acme-internal.cn\n');
  const zip = path.join(work, 'firmware.zip');
  execFileSync('zip', ['-qr', zip, '.'], { cwd: src });
  return zip;
}

async function analyseBinary(api: APIRequestContext, file: string): Promise<number> {
  const subject = await call<{ id: number }>(api, 'POST', '/api/binary/subject/create', { name: '固件', description: '', importance: 3 });
  const bytes = readFileSync(file);
  const upload = await call<{ uploadId: string }>(api, 'POST', '/api/upload', { fileName: 'firmware.zip', size: bytes.length });
  const put = await api.put(`/api/upload/${upload.uploadId}?offset=0`, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect((await put.json()).code).toBe(1);
  const launched = await call<{ projectId: number }>(api, 'POST', '/api/analysis', { subjectId: subject.id, projectName: 'agent-1.0', getCodeType: 16, uploadId: upload.uploadId, analysisModes: '1,9' });
  expect((await waitForRun(api, launched.projectId)).status).toBe(2);
  return launched.projectId;
}

test('敏感信息：规则列表、危险正则被拒、新增与停用规则、二进制任务的敏感信息页签', async ({ page }) => {
  test.setTimeout(300_000);
  await firstLogin(page, host.launchUrl);
  const api = await platformSession(page);

  // ---- the rules: built-in ones listed, not deletable ---------------------------------------------
  await page.goto(`${host.origin}/#/system/sensitive`);
  await expect(page.getByRole('heading', { name: '敏感信息规则', exact: true })).toBeVisible();
  const rows = page.locator('table.cairn-table tbody tr');
  const awsRow = page.getByRole('row', { name: /AWS 访问密钥 ID/ });
  await expect(awsRow).toContainText('已启用');
  await expect(awsRow.getByRole('button', { name: /删除/ })).toHaveCount(0);
  await page.screenshot({ path: shot('1-rules') });

  // ---- a catastrophic pattern is refused beside its field, then a valid rule is added ---------------
  await page.getByRole('button', { name: '新增规则' }).first().click();
  const dialog = page.getByRole('dialog', { name: '新增敏感信息规则' });
  await dialog.getByLabel(/规则名称/).fill('内部工单号');
  await dialog.getByLabel(/类型/).selectOption({ label: '内部网址与主机名' });
  await dialog.getByLabel(/正则表达式/).fill('(a+)+$');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toContainText('嵌套的量词');
  await page.screenshot({ path: shot('2-refused') });
  await dialog.getByLabel(/正则表达式/).fill(String.raw`\bTICKET-\d{4,}\b`);
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  const ticketRow = page.getByRole('row', { name: /内部工单号/ });
  await expect(ticketRow).toContainText('系统管理员');
  await expect(ticketRow).toContainText('已启用');

  // ---- a built-in rule turned off, and the filters in the URL ---------------------------------------
  await page.getByLabel('类型').selectOption({ label: '电子邮箱' });
  await expect(page).toHaveURL(/type=email/);
  const emailRow = page.getByRole('row', { name: /电子邮箱地址/ });
  await emailRow.getByRole('button', { name: /停用/ }).click();
  await expect(emailRow).toContainText('已停用');
  await page.getByRole('button', { name: '重置' }).click();
  await page.getByLabel('来源').selectOption({ label: '自定义' });
  await expect(page).toHaveURL(/source=user/);
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: shot('3-custom') });
  await page.getByRole('button', { name: '重置' }).click();

  // ---- a binary upload analysed with 敏感信息检测 ----------------------------------------------------
  const projectId = await analyseBinary(api, firmwareZip());
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=sensitiveInfo`);
  const sensitiveTab = page.getByRole('tab', { name: /^敏感信息/ });
  await expect(sensitiveTab).not.toContainText('暂未提供');
  await expect(page.getByText(/共 \d+ 处敏感信息，分布在 2 个文件中/)).toBeVisible({ timeout: 30_000 });
  const leakRows = page.locator('.cairn-sensitive-tab table.cairn-table tbody tr');
  await expect(page.locator('.cairn-sensitive-tab')).toContainText('password=********');
  await expect(page.locator('.cairn-sensitive-tab')).toContainText('http://nexus.corp.local:8081/repo/');
  await expect(page.locator('.cairn-sensitive-tab')).toContainText('TICKET-77123');
  await expect(page.locator('.cairn-sensitive-tab')).not.toContainText(PASSWORD);
  // The e-mail rule was off for this run.
  await expect(page.locator('.cairn-sensitive-tab')).not.toContainText('ops-team@acme-internal.cn');
  await page.screenshot({ path: shot('4-tab') });
  await page.getByRole('radio', { name: /访问令牌/ }).click();
  await expect(leakRows).toHaveCount(1);
  await expect(leakRows.first()).toContainText('AKIA********MPLE');
  await expect(leakRows.first()).toContainText('bin/agent');
  await page.screenshot({ path: shot('5-tokens') });

  // ---- the administrator's rule is deleted ---------------------------------------------------------
  await page.goto(`${host.origin}/#/system/sensitive`);
  await page.getByRole('row', { name: /内部工单号/ }).getByRole('button', { name: /删除/ }).click();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功').first()).toBeVisible();
  await expect(page.getByRole('row', { name: /内部工单号/ })).toHaveCount(0);
  await api.dispose();
});
