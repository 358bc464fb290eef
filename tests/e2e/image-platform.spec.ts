// A multi-platform image uploaded as 本地镜像文件: an OCI layout tar whose index holds linux/amd64
// and linux/arm64 images, each with a package of its own. Once uploaded, the form's 平台 select
// offers exactly the platforms the archive holds (linux/amd64 by default); linux/arm64 chosen, the
// run analyses that platform's layers, the overview names it and the edit form keeps it.
// Screenshots go to test-results/image-platform-*.png.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { writeOciLayout } from '../support/registry.ts';
import { firstLogin } from './admin-login.ts';
import { platformSession } from './platform-session.ts';
import { createSubjectOnScreen, newLocalProject, waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/image-platform-${name}.png`;
test.use({ actionTimeout: 15_000 });

const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n';
const pkg = (name: string, arch: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: ${arch}\nVersion: 1.0-1\n`;

let host: WebHost;
let work: string;
let multiTar: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-image-platform-'));
  const layout = join(work, 'layout');
  const platformImage = (arch: string) => ({
    architecture: arch,
    layers: [{ 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': [pkg('base-files', arch), pkg(`only-on-${arch}`, arch)].join('\n') }],
  });
  await writeOciLayout(layout, 'shop/multi:2.0', [platformImage('amd64'), platformImage('arm64')]);
  multiTar = join(work, 'shop-multi-2.0.tar');
  execFileSync('tar', ['-cf', multiTar, '-C', layout, '.']);
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('容器镜像：多平台镜像文件列出其中的平台，选择 linux/arm64 后分析该平台的软件包', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const subjectId = await createSubjectOnScreen(page, host.origin, '多平台镜像应用');
  const projectId = await newLocalProject(page, host.origin, subjectId, {
    codeType: '12',
    file: multiTar,
    name: 'shop-multi',
    shot: shot('1-form'),
    beforeLaunch: async (p) => {
      await expect(p.getByText('镜像包含 2 个平台：linux/amd64、linux/arm64，分析所选平台的镜像层')).toBeVisible({ timeout: 60_000 });
      const select = p.getByLabel('平台', { exact: true });
      await expect(select.locator('option')).toHaveText(['默认（linux/amd64）', 'linux/amd64', 'linux/arm64']);
      await select.selectOption('linux/arm64');
    },
  });
  const run = await waitForRun(api, projectId);
  expect(run.status, run.message).toBe(2);

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  await expect(page.getByTestId('image-panel')).toContainText('linux/arm64');
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=component`);
  const table = page.getByTestId('component-table');
  await expect(table.getByText('only-on-arm64', { exact: true })).toBeVisible();
  await expect(table.getByText('base-files', { exact: true })).toBeVisible();
  await expect(table.getByText('only-on-amd64', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: shot('2-arm64-components'), fullPage: true });

  // The edit form reads the stored upload's platforms and keeps the choice.
  await page.goto(`${host.origin}/#/project/analysis/launch?projectId=${projectId}`);
  await expect(page.getByText('镜像包含 2 个平台：linux/amd64、linux/arm64，分析所选平台的镜像层')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('平台', { exact: true })).toHaveValue('linux/arm64');
  await page.screenshot({ path: shot('3-edit'), fullPage: true });
});
