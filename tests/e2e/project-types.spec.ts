// 项目类型 end to end on a freshly started embedded platform (/system/projectType, built from the
// shared list pieces): the empty list, add with the client's name check and the platform's
// duplicate refusal beside the field, filters in the URL surviving a reload, offline and online,
// the 应用 form offering only online types, a rename that follows onto the 应用, delete refused
// while in use and allowed after. Screenshots at 1440×900 go to test-results/project-type-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/project-type-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('项目类型：新增、重名、筛选、上下线、应用选择、改名、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);

  // ---- the list starts empty ---------------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/projectType`);
  await expect(page.getByRole('heading', { name: '项目类型', exact: true })).toBeVisible();
  await expect(page.getByText('还没有项目类型')).toBeVisible();
  await page.screenshot({ path: shot('1-empty') });

  // ---- add: the client's rule first, then the platform ------------------------------------------
  await page.getByRole('button', { name: '新增项目类型' }).first().click();
  const dialog = page.getByRole('dialog', { name: '新增项目类型' });
  await dialog.getByLabel(/项目类型名称/).fill('Web 应用');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('请输入1-100个字符，不能包含[*?"<>|；《》]及空格')).toBeVisible();
  await dialog.getByLabel(/项目类型名称/).fill('Web应用');
  await dialog.getByLabel('备注').fill('对外网站');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  const rows = page.locator('table.cairn-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Web应用');
  await expect(rows.first()).toContainText('对外网站');
  await expect(rows.first()).toContainText('已上线');
  await expect(rows.first()).toContainText('系统管理员');

  await page.getByRole('button', { name: '新增项目类型' }).click();
  await dialog.getByLabel(/项目类型名称/).fill('移动端');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  // The same name in another case: the platform refuses it beside the name field.
  await page.getByRole('button', { name: '新增项目类型' }).click();
  await dialog.getByLabel(/项目类型名称/).fill('web应用');
  await dialog.getByRole('button', { name: '保存' }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toHaveText('项目类型“web应用”已存在');
  await expect(dialog.getByLabel(/项目类型名称/)).toBeFocused();
  await page.screenshot({ path: shot('2-duplicate') });
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  // ---- filters live in the URL ------------------------------------------------------------------
  await page.getByRole('textbox', { name: '关键字' }).fill('移动');
  await page.getByRole('textbox', { name: '关键字' }).press('Enter');
  await expect(page).toHaveURL(/q=%E7%A7%BB%E5%8A%A8|q=移动/);
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('移动端');
  await page.getByRole('button', { name: '重置' }).click();
  await expect(rows).toHaveCount(2);

  // ---- offline, then the status filter ------------------------------------------------------------
  await page.getByRole('row', { name: /移动端/ }).getByRole('button', { name: /^下线/ }).click();
  await expect(page.getByText('已下线').first()).toBeVisible();
  await expect(page.getByRole('row', { name: /移动端/ })).toContainText('已下线');
  await page.getByLabel('状态').selectOption({ label: '已下线' });
  await expect(page).toHaveURL(/status=1/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('移动端');
  await page.getByRole('button', { name: '重置' }).click();
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: shot('3-list') });

  // ---- the 应用 form offers the online types only ----------------------------------------------------
  await page.goto(`${host.origin}/#/project/projectList?product=1`);
  await page.getByRole('button', { name: '新建应用' }).first().click();
  const create = page.getByRole('dialog', { name: '新建应用' });
  const type = create.getByLabel('应用类型');
  await expect(type.locator('option')).toHaveText(['未设置', 'Web应用']);
  await create.getByLabel('应用名称').fill('shop-front');
  await type.selectOption({ label: 'Web应用' });
  await create.getByRole('button', { name: '保存' }).click();
  await expect(create).toBeHidden();

  // ---- the type counts its 应用; a rename follows onto them; delete waits until none has it -------------
  await page.goto(`${host.origin}/#/system/projectType`);
  const web = page.getByRole('row', { name: /Web应用/ });
  await expect(web.locator('td.cairn-col-number')).toHaveText('1');
  await web.getByRole('button', { name: /^编辑/ }).click();
  const edit = page.getByRole('dialog', { name: '编辑项目类型' });
  await expect(edit.getByLabel(/项目类型名称/)).toHaveValue('Web应用');
  await edit.getByLabel(/项目类型名称/).fill('网站');
  await expect(edit.getByText('改名后，使用该类型的 1 个应用随之更新')).toBeVisible();
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('修改成功').first()).toBeVisible();
  const site = page.getByRole('row', { name: /网站/ });
  await expect(site).toBeVisible();

  await site.getByRole('button', { name: /^删除/ }).click();
  await expect(page.getByRole('alertdialog')).toContainText('确定删除项目类型“网站”吗');
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('该项目类型正被 1 个应用使用，不能删除；可将其下线，不再供新应用选择')).toBeVisible();
  await expect(rows).toHaveCount(2);

  await page.getByRole('row', { name: /移动端/ }).getByRole('button', { name: /^删除/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功').first()).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('网站');
  await page.screenshot({ path: shot('4-after') });

  // The 应用 carries the new name.
  await page.goto(`${host.origin}/#/project/projectList?product=1`);
  await page.getByRole('row', { name: /shop-front/ }).getByRole('button', { name: '设置' }).click();
  await expect(page.getByLabel('应用类型')).toHaveValue('网站');
});
