// The vulnerability knowledge base end to end, on a freshly started embedded platform with real
// data: three Go advisories from the OSV corpus and one broken file are uploaded to the import
// call, three system vulnerabilities are added through the API; then the list (filters in the
// URL, level filter, reload and back), the detail tabs, the kanban, the system vulnerability
// admin (add through the dialog with a Chinese validation message, delete, batch delete) and the
// import records with a record's errors. Screenshots go to test-results/vul-*.png.
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession, type Envelope } from './platform-session.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const CORPUS = '../shared/corpora/advisories/go';
const ADVISORIES = ['GO-2022-0229.json', 'GO-2022-0463.json', 'GO-2024-2687.json'];
const shot = (name: string) => `test-results/vul-${name}.png`;

test.use({ actionTimeout: 15_000 });

let host: WebHost;
let api: APIRequestContext | null = null;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
});


async function seed(ctx: APIRequestContext) {
  for (const name of ADVISORIES) {
    const res = await ctx.post('/api/vulnerability/system/importTemplate', {
      multipart: { file: { name, mimeType: 'application/json', buffer: readFileSync(`${CORPUS}/${name}`) } },
    });
    const env = (await res.json()) as Envelope<{ recordId: number }>;
    expect(env.code, env.message).toBe(1);
  }
  // A file that is no advisory at all: its record fails with a per-file error.
  await ctx.post('/api/vulnerability/system/importTemplate', {
    multipart: { file: { name: 'broken-advisory.json', mimeType: 'application/json', buffer: Buffer.from('{"id": 42, "affected": "nope"') } },
  });
  // Wait for the imports to finish.
  await expect
    .poll(async () => {
      const page = await call<{ content: Array<{ status: number }> }>(ctx, 'GET', '/api/vulnerability/system/import/record?page=1&size=50');
      return page.content.length >= 4 && page.content.every((r) => r.status !== 1);
    }, { timeout: 60_000 })
    .toBe(true);

  const custom = [
    { identify: 'CVE-2099-10001', name: '示例组件反序列化远程代码执行漏洞', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', cwes: ['CWE-502'], packages: [{ ecosystem: 'maven', name: 'com.example:demo-core', vulnerable: ['>=1.0.0, <1.4.2'], fixed: ['1.4.2'] }], references: ['https://example.com/advisories/demo-core'], description: '攻击者可通过构造的序列化数据在服务器上执行任意代码。', published: '2026-01-15' },
    { name: '示例模板引擎服务端模板注入漏洞', vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:L/A:N', packages: [{ ecosystem: 'npm', name: 'demo-template', vulnerable: ['<2.3.0'], fixed: ['2.3.0'] }], published: '2026-02-01' },
    { name: '示例日志库信息泄露漏洞', level: 4, packages: [{ ecosystem: 'pypi', name: 'demo-log', vulnerable: ['<0.9.1'] }], published: '2025-11-20' },
  ];
  for (const body of custom) await call(ctx, 'POST', '/api/vulnerability/system/add', body);
}

test('漏洞知识库：列表筛选、详情、看板、系统漏洞维护、导入记录', async ({ page }) => {
  test.setTimeout(240_000);
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  await seed(api);

  // ---- 漏洞列表 ------------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/bug/bugList`);
  await expect(page.getByRole('heading', { name: '漏洞列表' })).toBeVisible();
  const rows = page.locator('table.cairn-vul-table tbody tr');
  await expect(rows).toHaveCount(6);
  await expect(page.getByText('GO-2022-0229(CVE-2020-7919)')).toBeVisible();
  await expect(page.getByText('CVE-2099-10001', { exact: true })).toBeVisible();
  await expect(page.getByText('共 6 条')).toBeVisible();
  await page.screenshot({ path: shot('1-list'), fullPage: true });

  // The level filter narrows, lives in the URL, survives a reload, and back undoes it.
  await page.getByRole('checkbox', { name: '超危' }).click();
  await expect(page).toHaveURL(/levels=1/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('示例组件反序列化远程代码执行漏洞');
  await expect(rows.first()).toContainText('9.8');
  await page.screenshot({ path: shot('2-list-critical'), fullPage: true });
  await page.reload();
  await expect(page.getByRole('checkbox', { name: '超危' })).toHaveAttribute('aria-checked', 'true');
  await expect(rows).toHaveCount(1);
  await page.goBack();
  await expect(rows).toHaveCount(6);

  // Keyword over ids and aliases.
  await page.getByRole('textbox', { name: '关键字' }).fill('CVE-2020-7919');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/q=CVE-2020-7919/);
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: '重置' }).click();
  await expect(rows).toHaveCount(6);

  // Sorting by level puts the most severe first; by score, the highest first.
  await page.getByRole('columnheader', { name: '等级' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=level/);
  await expect(rows.first()).toContainText('超危');
  await page.getByRole('columnheader', { name: 'CVSS 评分' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=score/);
  await expect(rows.first()).toContainText('9.8');
  await expect(rows.nth(1)).toContainText('7.1');
  await page.getByRole('columnheader', { name: '发布日期' }).getByRole('button').click();
  await expect(rows.first()).toContainText('2026-02-01');

  // Nothing matching: the filtered empty state.
  await page.getByRole('textbox', { name: '关键字' }).fill('no-such-vulnerability');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page.getByText('没有符合条件的漏洞')).toBeVisible();
  await page.screenshot({ path: shot('1b-list-empty'), fullPage: true });
  await page.getByRole('button', { name: '重置' }).click();
  await expect(rows).toHaveCount(6);

  // ---- 漏洞详情 ------------------------------------------------------------------------------
  await page.getByText('GO-2022-0229(CVE-2020-7919)').click();
  await expect(page).toHaveURL(/#\/bug\/bugList\/details\?id=\d+/);
  await expect(page.getByRole('tab', { name: '概览' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Panic in certificate parsing', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('GHSA-cjjc-xp8v-855w')).toBeVisible();
  await expect(page.getByText(/On 32-bit architectures/)).toBeVisible();
  await page.screenshot({ path: shot('3-detail-overview'), fullPage: true });

  await page.getByRole('tab', { name: '影响项目' }).click();
  await expect(page).toHaveURL(/tab=impactItem/);
  await expect(page.getByRole('cell', { name: 'golang.org/x/crypto' })).toBeVisible();
  await expect(page.getByText('1.12.16').first()).toBeVisible();
  await page.screenshot({ path: shot('4-detail-impact'), fullPage: true });

  await page.getByRole('tab', { name: '参考信息' }).click();
  await expect(page.getByRole('link', { name: 'https://go.dev/cl/216680' })).toBeVisible();
  await page.screenshot({ path: shot('5-detail-references'), fullPage: true });

  // An id the knowledge base does not hold: the platform's message in place.
  await page.goto(`${host.origin}/#/bug/bugList/details?id=999999`);
  await expect(page.getByText('漏洞不存在')).toBeVisible();

  // ---- 漏洞看板 ------------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/bug/bugKanban`);
  await expect(page.getByTestId('vul-total')).toHaveText('6');
  await expect(page.getByTestId('vul-level-1')).toHaveText('1');
  await expect(page.locator('.cairn-chart canvas')).toBeVisible();
  await expect(page.getByRole('heading', { name: '最新发布的漏洞' })).toBeVisible();
  await page.screenshot({ path: shot('6-kanban'), fullPage: true });
  // A level tile opens the list filtered by it.
  await page.getByTestId('vul-level-2').click();
  await expect(page).toHaveURL(/#\/bug\/bugList\?levels=2/);
  await expect(rows).toHaveCount(1);

  // ---- 系统漏洞库 ----------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/knowledgeBase/vul`);
  await expect(page.getByRole('heading', { name: '漏洞知识库', level: 3 })).toBeVisible();
  await expect(rows).toHaveCount(3);
  await page.screenshot({ path: shot('7-system'), fullPage: true });

  await page.getByRole('button', { name: '新增漏洞' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /漏洞名称/ }).fill('端到端测试新增漏洞');
  await dialog.getByLabel('漏洞等级').selectOption({ label: '高危' });
  await dialog.getByRole('textbox', { name: 'CVE 编号' }).fill('CVE-12');
  await dialog.getByRole('textbox', { name: '组件名称' }).fill('org.example:e2e-lib');
  await dialog.getByRole('textbox', { name: '受影响版本' }).fill('<3.0.0');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toContainText('CVE 编号格式不正确');
  await page.screenshot({ path: shot('8-system-dialog-error'), fullPage: true });

  await dialog.getByRole('textbox', { name: 'CVE 编号' }).fill('CVE-2099-20002');
  await expect(dialog.getByRole('button', { name: '保存' })).toBeEnabled(); // the click guard
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  const added = page.getByRole('row', { name: /端到端测试新增漏洞/ });
  await expect(added).toBeVisible();
  await expect(rows).toHaveCount(4);

  // Edit: the dialog is filled from the platform, the change is saved.
  await added.getByRole('button', { name: /^编辑/ }).click();
  await expect(dialog.getByRole('textbox', { name: 'CVE 编号' })).toHaveValue('CVE-2099-20002');
  await expect(dialog.getByRole('textbox', { name: '组件名称' })).toHaveValue('org.example:e2e-lib');
  await dialog.getByRole('textbox', { name: /漏洞名称/ }).fill('端到端测试新增漏洞（已编辑）');
  await expect(dialog.getByRole('button', { name: '保存' })).toBeEnabled(); // the click guard
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /端到端测试新增漏洞（已编辑）/ })).toBeVisible();

  // Delete asks first.
  await added.getByRole('button', { name: /^删除/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText('确定删除系统漏洞');
  await page.screenshot({ path: shot('9-system-delete-confirm'), fullPage: true });
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByRole('row', { name: /端到端测试新增漏洞/ })).toHaveCount(0);
  await expect(rows).toHaveCount(3);

  // Batch delete two.
  await setBox(page.getByRole('checkbox', { name: /选择 .*CVE-2099-10001/ }));
  await setBox(page.getByRole('row', { name: /示例日志库信息泄露漏洞/ }).getByRole('checkbox'));
  await page.getByRole('button', { name: '批量删除（2）' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('示例模板引擎服务端模板注入漏洞');

  // ---- 导入记录 ------------------------------------------------------------------------------
  await page.getByRole('button', { name: '导入记录' }).click();
  await expect(page).toHaveURL(/#\/system\/knowledgeBase\/vul\/batch/);
  const records = page.locator('table.cairn-import-table tbody tr');
  await expect(records).toHaveCount(4);
  await expect(page.getByText('导入成功').first()).toBeVisible();
  await expect(page.getByText('导入失败').first()).toBeVisible();
  await page.screenshot({ path: shot('10-imports'), fullPage: true });
  await page.getByRole('row', { name: /broken-advisory/ }).getByRole('button', { name: /查看错误/ }).click();
  const drawer = page.locator('.bp6-drawer');
  await expect(drawer).toContainText('broken-advisory');
  await page.screenshot({ path: shot('11-import-errors') });
  await page.keyboard.press('Escape');

  // The dark theme follows the system: the kanban's chart is redrawn in it.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${host.origin}/#/bug/bugKanban`);
  await expect(page.getByTestId('vul-total')).toHaveText('4');
  await expect(page.locator('.cairn-chart canvas')).toBeVisible();
  await page.screenshot({ path: shot('12-kanban-dark'), fullPage: true });
});
