// 组织管理 end to end on a freshly started embedded platform (/system/group and
// /system/group/details): the empty tree, a top-level group and child groups, the client's name
// check and the platform's sibling-name refusal beside the field, rename with the path following,
// a move whose choices leave out the group itself and those below it, the details page's 应用 and
// 成员 tabs with their pickers (an 应用 moved from another group says where it was), the 子分组
// tab, and delete refused while the group holds anything. Screenshots at 1440×900 go to
// test-results/group-*.png.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { call, platformSession } from './platform-session.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/group-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let api: APIRequestContext | null = null;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
});

test('组织管理：分组树、重名、改名、移动、应用与成员、子分组、删除', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  for (const name of ['网上银行', '手机银行', '营销平台']) await call(api, 'POST', '/api/subject/create', { name });

  // ---- the empty tree -------------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/group`);
  await expect(page.getByRole('heading', { name: '组织管理', exact: true })).toBeVisible();
  await expect(page.getByText('还没有分组')).toBeVisible();

  // ---- a top-level group, with the client's rule first ----------------------------------------------
  await page.getByRole('button', { name: '新建顶级分组' }).first().click();
  const rootDialog = page.getByRole('dialog', { name: '新建顶级分组' });
  await rootDialog.getByLabel(/分组名称/).fill('总部/研发');
  await rootDialog.getByRole('button', { name: '保存' }).click();
  await expect(rootDialog.getByText('分组名称不能包含“/”（分组路径用它分隔各级名称）')).toBeVisible();
  await rootDialog.getByLabel(/分组名称/).fill('总部');
  await rootDialog.getByRole('button', { name: '保存' }).click();
  await expect(rootDialog).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  // The new group is chosen: its facts and commands are on the right.
  const side = page.locator('.cairn-group-side');
  await expect(side.getByRole('heading', { name: '总部' })).toBeVisible();

  // ---- child groups, and a sibling's name refused beside the field ---------------------------------
  const addChild = async (parent: string, name: string) => {
    await page.locator('.cairn-group-tree').getByText(parent, { exact: true }).click();
    await side.getByRole('button', { name: '新建子分组' }).click();
    const dialog = page.getByRole('dialog', { name: `在“${parent === '总部' ? '总部' : `总部/${parent}`}”下新建子分组` });
    await dialog.getByLabel(/分组名称/).fill(name);
    await dialog.getByRole('button', { name: '保存' }).click();
    return dialog;
  };
  await expect(await addChild('总部', '研发部')).toBeHidden();
  await expect(await addChild('总部', '销售部')).toBeHidden();
  await expect(await addChild('研发部', '平台组')).toBeHidden();
  const duplicate = await addChild('总部', '研发部');
  await expect(duplicate.getByRole('alert')).toHaveText('同一级下已有名为“研发部”的分组');
  await expect(duplicate.getByLabel(/分组名称/)).toBeFocused();
  await duplicate.getByRole('button', { name: '取消' }).click();
  await page.locator('.cairn-group-tree').getByText('平台组', { exact: true }).click();
  await expect(side).toContainText('总部/研发部/平台组');
  await page.screenshot({ path: shot('1-tree') });

  // ---- rename: the path below follows -------------------------------------------------------------
  await page.locator('.cairn-group-tree').getByText('研发部', { exact: true }).click();
  await side.getByRole('button', { name: '重命名' }).click();
  const renameDialog = page.getByRole('dialog', { name: '重命名“总部/研发部”' });
  await renameDialog.getByLabel(/分组名称/).fill('技术部');
  await renameDialog.getByRole('button', { name: '保存' }).click();
  await expect(renameDialog).toBeHidden();
  await expect(page.getByText('修改成功').first()).toBeVisible();
  await page.locator('.cairn-group-tree').getByText('平台组', { exact: true }).click();
  await expect(side).toContainText('总部/技术部/平台组');

  // ---- move: neither the group itself nor those below it are offered ---------------------------------
  await page.locator('.cairn-group-tree').getByText('技术部', { exact: true }).click();
  await side.getByRole('button', { name: '移动' }).click();
  const moveDialog = page.getByRole('dialog', { name: '移动“总部/技术部”' });
  const target = moveDialog.getByLabel('移动到');
  await expect(target.locator('option')).toHaveText(['（顶级，无上级分组）', '总部', '总部/销售部']);
  await target.selectOption({ label: '总部/销售部' });
  await page.screenshot({ path: shot('2-move') });
  await moveDialog.getByRole('button', { name: '保存' }).click();
  await expect(moveDialog).toBeHidden();
  await expect(page.getByText('移动成功').first()).toBeVisible();
  await expect(side).toContainText('总部/销售部/技术部');

  // ---- details: 应用 in and out --------------------------------------------------------------------
  await side.getByRole('button', { name: '查看详情' }).click();
  await expect(page.getByRole('heading', { name: '组织详情' })).toBeVisible();
  await expect(page.getByText('该分组下还没有应用')).toBeVisible();
  await page.getByRole('button', { name: '添加应用' }).first().click();
  const pick = page.getByRole('dialog', { name: '向“总部/销售部/技术部”添加应用' });
  await expect(pick.locator('tbody tr')).toHaveCount(3);
  await pick.getByRole('searchbox', { name: '应用名称' }).fill('银行');
  await expect(pick.locator('tbody tr')).toHaveCount(2);
  await setBox(pick.getByRole('checkbox', { name: /网上银行/ }));
  await setBox(pick.getByRole('checkbox', { name: /手机银行/ }));
  await pick.getByRole('button', { name: '添加所选（2）' }).click();
  await expect(pick).toBeHidden();
  await expect(page.getByText('添加成功').first()).toBeVisible();
  const rows = page.locator('.cairn-tab-panel table.cairn-table tbody tr');
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: shot('3-subjects') });

  // An 应用 of another group: the picker says where it is now.
  const platformGroup = await call<{ id: number }>(api, 'GET', `/api/group/getByGroupPath?groupPath=${encodeURIComponent('总部/销售部/技术部/平台组')}`);
  const other = await call<{ content: Array<{ id: number; name: string }> }>(api, 'GET', `/api/group/hasNotSubjects?groupId=${platformGroup.id}&keyword=${encodeURIComponent('营销')}`);
  await call(api, 'POST', '/api/group/addSubjects', { groupId: platformGroup.id, subjectIds: [other.content[0]!.id] });
  await page.getByRole('button', { name: '添加应用' }).first().click();
  await expect(pick.getByRole('row', { name: /营销平台/ })).toContainText('总部/销售部/技术部/平台组');
  await pick.getByRole('button', { name: '取消' }).click();

  // Remove one.
  await page.getByRole('row', { name: /手机银行/ }).getByRole('button', { name: /移除/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '移除' }).click();
  await expect(page.getByText('移除成功').first()).toBeVisible();
  await expect(rows).toHaveCount(1);

  // ---- 成员 ------------------------------------------------------------------------------------------
  await page.getByRole('tab', { name: '成员' }).click();
  await expect(page).toHaveURL(/tab=member/);
  await expect(page.getByText('该分组还没有成员')).toBeVisible();
  await page.getByRole('button', { name: '添加成员' }).first().click();
  const pickUsers = page.getByRole('dialog', { name: '向“总部/销售部/技术部”添加成员' });
  await setBox(pickUsers.getByRole('checkbox', { name: /admin/ }));
  await pickUsers.getByRole('button', { name: '添加所选（1）' }).click();
  await expect(pickUsers).toBeHidden();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('总部/销售部/技术部');
  await page.screenshot({ path: shot('4-members') });

  // ---- 子分组 -----------------------------------------------------------------------------------------
  await page.getByRole('tab', { name: '子分组' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('平台组');
  await page.screenshot({ path: shot('5-children') });

  // ---- delete: refused while the group holds anything ----------------------------------------------
  await page.goto(`${host.origin}/#/system/group`);
  await page.locator('.cairn-group-tree').getByText('技术部', { exact: true }).click();
  await side.getByRole('button', { name: '删除' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('该分组下还有 1 个子分组、1 个应用、1 名成员，请先移走后再删除').first()).toBeVisible();
  await page.locator('.cairn-group-tree').getByText('总部', { exact: true }).click();
  await page.getByRole('searchbox', { name: '搜索分组' }).fill('平台');
  await expect(page.locator('.cairn-group-tree')).toContainText('平台组');
  await expect(page.locator('.cairn-group-tree')).not.toContainText('研发');
  await page.screenshot({ path: shot('6-search') });

  // ---- a new 应用 may be placed in any group, named by its path ---------------------------------------
  await page.goto(`${host.origin}/#/project/projectList`);
  await page.getByRole('button', { name: '新建应用' }).first().click();
  const create = page.getByRole('dialog', { name: '新建应用' });
  await expect(create.getByLabel('所属分组').locator('option')).toHaveText(['不分组', '总部', '总部/销售部', '总部/销售部/技术部', '总部/销售部/技术部/平台组']);
  await create.getByRole('button', { name: '取消' }).click();
});
