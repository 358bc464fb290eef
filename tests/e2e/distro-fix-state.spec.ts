// A distribution's won't-fix on screen (issue 16 item 6), end to end on a freshly started embedded
// platform whose knowledge base holds trivy's database (imported with `cairn kb import` before it
// starts): a Red Hat Enterprise Linux 7 root filesystem uploaded as a project shows bash's
// CVE-2019-18276 with 发行版不修复 where the fixed-in version would be — in the task's vulnerability
// list, the finding drawer (with the reason as the upgrade advice) and the component drawer — and
// the knowledge base's page lists each release's status (Red Hat 7 不修复, Debian 9 已停止支持).
// Screenshots at 1440×900 go to test-results/fixstate-*.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { CORPORA, startWebHost, type WebHost } from './web-host.ts';
import { buildBdb, packageHeader } from '../support/rpmdb.ts';

const shot = (name: string) => `test-results/fixstate-${name}.png`;

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
let work: string;
let tarball: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-fixstate-'));
  const rootfs = join(work, 'rootfs');
  mkdirSync(join(rootfs, 'var/lib/rpm'), { recursive: true });
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(join(rootfs, 'etc/os-release'), 'NAME="Red Hat Enterprise Linux Server"\nID="rhel"\nVERSION_ID="7.9"\nPRETTY_NAME="Red Hat Enterprise Linux Server 7.9 (Maipo)"\n');
  writeFileSync(join(rootfs, 'var/lib/rpm/Packages'), buildBdb([
    packageHeader({ name: 'bash', version: '4.2.46', release: '34.el7', sourceRpm: 'bash-4.2.46-34.el7.src.rpm', vendor: 'Red Hat, Inc.', license: 'GPLv3+' }),
    packageHeader({ name: 'openssl-libs', version: '1.0.2k', release: '16.el7', epoch: 1, sourceRpm: 'openssl-1.0.2k-16.el7.src.rpm', vendor: 'Red Hat, Inc.', license: 'OpenSSL' }),
  ]));
  tarball = join(work, 'rhel7-rootfs.tar');
  execFileSync('tar', ['-cf', tarball, '-C', rootfs, '.']);
  host = await startWebHost({
    prepare: (home) => {
      execFileSync(process.execPath, ['cli/cairn.ts', 'kb', 'import', '--db', join(home, 'platform', 'cairn.db'), join(CORPORA, 'trivy', 'db')], { stdio: 'ignore' });
    },
  });
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('发行版不修复：任务漏洞列表、漏洞详情抽屉、组件抽屉与知识库按发行版本的状态', async ({ page }) => {
  test.setTimeout(300_000);
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);

  const subjectId = await createSubjectOnScreen(page, host.origin, '红帽主机镜像');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '0', file: tarball, name: 'rhel7-rootfs' });
  expect((await waitForRun(api, projectId)).status).toBe(2);

  // ---- the task's vulnerability list: 修复版本 says why there is none ---------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=bug`);
  const rows = page.locator('table.cairn-finding-table tbody tr');
  await expect(rows.first()).toBeVisible();
  // Every level's tab: find bash's row wherever its level puts it.
  const tabs = page.locator('[role=tab]');
  let bashRow = rows.filter({ hasText: 'CVE-2019-18276' });
  for (let i = 0; (await bashRow.count()) === 0 && i < (await tabs.count()); i++) {
    await tabs.nth(i).click();
    bashRow = rows.filter({ hasText: 'CVE-2019-18276' });
  }
  await expect(bashRow.getByTestId('fix-state')).toHaveText('发行版不修复');
  await page.screenshot({ path: shot('1-task-list'), fullPage: true });

  // ---- the finding drawer: 修复版本 and the upgrade advice -------------------------------------
  await bashRow.first().click();
  const drawer = page.locator('.cairn-result-drawer');
  await expect(drawer.getByTestId('fix-state').first()).toHaveText('发行版不修复');
  await expect(drawer).toContainText('发行版声明不修复');
  await expect(drawer.locator('table.cairn-affected-table')).toContainText('发行版状态');
  await expect(drawer.locator('table.cairn-affected-table')).toContainText('不修复');
  await page.screenshot({ path: shot('2-finding-drawer') });

  // ---- the component drawer's vulnerabilities ------------------------------------------------------
  await drawer.locator('a.cairn-link-strong', { hasText: 'bash' }).click();
  await expect(page).toHaveURL(/tab=component/);
  const componentDrawer = page.locator('.cairn-result-drawer');
  await expect(componentDrawer.locator('tr', { hasText: 'CVE-2019-18276' }).getByTestId('fix-state')).toHaveText('发行版不修复');
  await page.screenshot({ path: shot('3-component-drawer') });
  await page.keyboard.press('Escape');

  // ---- the knowledge base's page: each release's statement -------------------------------------
  await page.goto(`${host.origin}/#/knowledge/bug/details?id=CVE-2019-18276`);
  await page.getByRole('tab', { name: '影响项目' }).click();
  const affected = page.locator('table.cairn-affected-table');
  await expect(affected).toContainText('发行版状态');
  await expect(affected.locator('tr', { hasText: 'Red Hat Enterprise Linux 7' }).getByTestId('fix-state')).toHaveText('不修复');
  await expect(affected.locator('tr', { hasText: 'Debian 9' }).getByTestId('fix-state')).toHaveText('已停止支持');
  await page.screenshot({ path: shot('4-kb-detail'), fullPage: true });
});
