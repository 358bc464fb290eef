// The licence knowledge base end to end, on a freshly started embedded platform with its shipped
// SPDX licence list: the list (keyword, copyleft filter in the URL), Apache-2.0's details (full
// text, attributes, the empty 影响项目 tab), and the level settings (MIT's level changed there,
// then seen on the list). Screenshots go to test-results/license-*.png.
import { expect, test } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/license-${name}.png`;

test.use({ actionTimeout: 15_000 });

let host: WebHost;
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => { await host?.stop(); });

test('许可证：列表筛选、详情、等级设置', async ({ page }) => {
  test.setTimeout(180_000);
  await firstLogin(page, host.launchUrl);

  // ---- 许可证列表 ----------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/license`);
  await expect(page.getByRole('heading', { name: '许可证' })).toBeVisible();
  const rows = page.locator('table.cairn-license-table tbody tr');
  await expect(rows).toHaveCount(15);
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  await page.screenshot({ path: shot('1-list'), fullPage: true });

  const search = async (keyword: string) => {
    await page.getByRole('textbox', { name: '关键字' }).fill(keyword);
    await page.getByRole('button', { name: '查询' }).click();
  };
  const rowOf = (spdxId: string) => rows.filter({ has: page.getByRole('link', { name: spdxId, exact: true }) });
  await search('MIT');
  await expect(page).toHaveURL(/q=MIT/);
  await expect(rowOf('MIT')).toHaveCount(1);
  await expect(rowOf('MIT')).toContainText('MIT License');
  await search('Apache-2.0');
  await expect(rowOf('Apache-2.0')).toHaveCount(1);
  await page.getByRole('button', { name: '重置' }).click();
  await expect(page).not.toHaveURL(/q=/);

  // Network copyleft: AGPL, kept in the URL and across a reload.
  await page.getByRole('group', { name: '传染性' }).getByRole('checkbox', { name: '网络' }).click();
  await expect(page).toHaveURL(/copyleft=network/);
  await expect(rowOf('AGPL-3.0-only')).toHaveCount(1);
  await expect(rowOf('MIT')).toHaveCount(0);
  await page.screenshot({ path: shot('2-list-network'), fullPage: true });
  await page.reload();
  await expect(page.getByRole('group', { name: '传染性' }).getByRole('checkbox', { name: '网络' })).toHaveAttribute('aria-checked', 'true');
  await expect(rowOf('AGPL-3.0-only')).toHaveCount(1);

  // ---- 许可证详情 ----------------------------------------------------------------------------
  await page.goto(`${host.origin}/#/license?q=Apache-2.0`);
  await rowOf('Apache-2.0').getByRole('link', { name: 'Apache-2.0', exact: true }).click();
  await expect(page).toHaveURL(/#\/license\/details\?id=\d+/);
  await expect(page.getByRole('tab', { name: '概览' })).toHaveAttribute('aria-selected', 'true');
  const attrs = page.getByRole('list', { name: '许可证属性' });
  await expect(attrs.getByRole('listitem').filter({ hasText: '专利授权' })).toContainText('是');
  await expect(attrs.getByRole('listitem').filter({ hasText: 'OSI 认证' })).toContainText('是');
  const text = page.locator('pre.cairn-license-text');
  await expect(text).toContainText('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
  await expect(text).toContainText('END OF TERMS AND CONDITIONS');
  await expect(page.locator('.cairn-external-link a').first()).toHaveAttribute('href', /spdx\.org/);
  await page.screenshot({ path: shot('3-detail-overview'), fullPage: true });

  await page.getByRole('tab', { name: '影响项目' }).click();
  await expect(page).toHaveURL(/tab=impactItem/);
  await expect(page.getByText('目前没有项目的检测结果包含此许可证')).toBeVisible();
  await page.screenshot({ path: shot('4-detail-impact'), fullPage: true });

  // ---- 许可证知识库（等级设置） --------------------------------------------------------------
  await page.goto(`${host.origin}/#/system/knowledgeBase/protocol`);
  await expect(page.getByRole('heading', { name: '许可证知识库' })).toBeVisible();
  await expect(rows).toHaveCount(15);
  await search('MIT');
  const select = rowOf('MIT').getByRole('combobox', { name: 'MIT 的等级' });
  await expect(select).toBeVisible();
  await select.selectOption({ label: '高危' });
  await expect(page.getByText('许可证等级已修改').first()).toBeVisible();
  await expect(rowOf('MIT')).toContainText('已修改');
  await expect(select).toHaveValue('2');
  // A controlled switch (its state is the URL's): click, then wait for the URL and the switch.
  const onlyEdited = page.getByLabel('仅显示已修改');
  await onlyEdited.click({ force: true });
  await expect(page).toHaveURL(/edited=1/);
  await expect(onlyEdited).toBeChecked();
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: shot('5-system'), fullPage: true });

  // The list shows the new level.
  await page.goto(`${host.origin}/#/license?q=MIT`);
  await expect(rowOf('MIT').locator('.cairn-level-tag')).toHaveText('高危');
  await page.screenshot({ path: shot('6-list-after-edit'), fullPage: true });
});
