// 用户管理 end to end on a freshly started embedded platform at 1440×900: the administrator adds a
// user in the dialog (a weak password is refused beside its field), finds them by the filters,
// changes their roles (the relogin warning), locks them; the template downloads; an Excel file
// with one good and one bad row imports the good one and shows the bad one's reason, and the
// import record lists both rows. Screenshots go to test-results/users-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/users-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
const work = mkdtempSync(path.join(tmpdir(), 'cairn-e2e-users-'));
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('users: add, filter, change roles, lock, import from Excel and read the record', async ({ page }) => {
  test.setTimeout(240_000);
  await firstLogin(page, host.launchUrl);
  await page.goto(`${host.origin}/#/system/user/user`);
  await expect(page.getByRole('heading', { name: '用户管理' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toBeVisible();

  await page.getByRole('button', { name: '新增用户' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^用户名/).fill('zhangsan');
  await dialog.getByLabel(/^姓名/).fill('张三');
  await dialog.getByLabel(/^初始密码/).fill('weak');
  await dialog.getByLabel(/^邮箱/).fill('zhangsan@example.com');
  await dialog.getByRole('button', { name: /确定|保存/ }).click();
  await expect(dialog.getByText('密码由8位及以上大写字母、小写字母、数字、特殊字符组成')).toBeVisible();
  await page.screenshot({ path: shot('add-refused') });
  await dialog.getByLabel(/^初始密码/).fill('Zhang#San123');
  await dialog.getByRole('button', { name: /确定|保存/ }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'zhangsan', exact: true })).toBeVisible();

  await page.getByPlaceholder('搜索用户名或姓名').fill('zhang');
  await page.getByPlaceholder('搜索用户名或姓名').press('Enter');
  await expect(page).toHaveURL(/q=zhang/);
  await expect(page.getByRole('cell', { name: 'admin', exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: '编辑 zhangsan' }).click();
  await page.getByRole('dialog').getByText('域管理员', { exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: /确定|保存/ }).click();
  await expect(page.getByText('若修改分配角色，用户需重新登录才可生效')).toBeVisible();
  await page.getByRole('button', { name: '锁定 zhangsan' }).click();
  await expect(page.getByRole('table').getByText('已锁定')).toBeVisible();
  await page.screenshot({ path: shot('list') });

  await page.goto(`${host.origin}/#/system/user/import`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载导入模板' }).click();
  expect((await download).suggestedFilename()).toBe('用户导入模板.xlsx');

  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['用户名', '姓名', '初始密码', '邮箱', '手机号', '角色', '分组']);
  sheet.addRow(['lisi', '李四', 'Li#Si12345', '', '', '普通用户', '']);
  sheet.addRow(['zhangsan', '重复', 'Li#Si12345', '', '', '', '']);
  const file = path.join(work, '用户.xlsx');
  await book.xlsx.writeFile(file);
  await page.getByTestId('upload-file-input').setInputFiles(file);
  await expect(page.getByRole('button', { name: '开始导入' })).toBeEnabled({ timeout: 30_000 });
  await page.getByRole('button', { name: '开始导入' }).click();
  await expect(page.getByText('共 2 行，导入成功 1 行，失败 1 行')).toBeVisible();
  await expect(page.getByText('用户名已存在：zhangsan')).toBeVisible();
  await page.screenshot({ path: shot('import') });

  await page.goto(`${host.origin}/#/system/user/record`);
  await expect(page.getByRole('cell', { name: '用户.xlsx', exact: true })).toBeVisible();
  await page.getByRole('button', { name: '逐行结果 用户.xlsx' }).click();
  await page.getByRole('dialog').getByText('只看失败').click();
  await expect(page.getByRole('dialog').getByRole('cell', { name: 'lisi' })).toBeVisible();
  await page.screenshot({ path: shot('record') });

  // Synchronised users from a loopback source.
  const source = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ username: 'sz001', name: '苏一' }, { username: 'lisi', name: '冒名' }]));
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  try {
    await page.goto(`${host.origin}/#/system/user/user`);
    await page.getByRole('button', { name: '同步外部用户' }).click();
    const syncUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/users.json`;
    // The dialog puts the saved source (none yet) into its fields when its read of it returns,
    // over an address typed before then; typed again until the address is still there to sync.
    await expect(async () => {
      await page.getByLabel('同步地址').fill(syncUrl);
      await page.getByRole('button', { name: '立即同步' }).click({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByText('来源共 2 个用户：新建 1，更新 0，无变化 0，跳过 1')).toBeVisible();
    await expect(page.getByText('lisi：已存在同名的非同步用户（类型 0），未修改')).toBeVisible();
    await page.screenshot({ path: shot('sync') });
    await page.getByRole('button', { name: '关闭' }).click();
    await expect(page.getByRole('cell', { name: 'sz001', exact: true })).toBeVisible();
  } finally {
    source.close();
  }
});
