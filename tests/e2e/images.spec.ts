// Container images in the task screens: an OCI image (built here in three layers: a Debian base, an
// apt install with Python's requests, an app layer that purges a package and adds an npm package)
// uploaded on 新建项目 as 本地镜像文件, analysed, and shown — the overview's 容器镜像 panel with the
// base system and the layers, a layer row opening the component list filtered by that layer, the
// 镜像层 column and filter, the image → layers → components tree, and the layer in the component
// drawer. Screenshots go to test-results/image-*.png.
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

const shot = (name: string) => `test-results/image-${name}.png`;
test.use({ actionTimeout: 15_000 });

const pkg = (name: string, version: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n`;
const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n';

let host: WebHost;
let work: string;
let imageTar: string;
let api: APIRequestContext | null = null;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-image-'));
  const layout = join(work, 'layout');
  await writeOciLayout(layout, 'shop/api:1.4', [{
    architecture: 'amd64',
    layers: [
      { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2')].join('\n') },
      {
        'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2'), pkg('curl', '7.88.1-10+deb12u5')].join('\n'),
        'usr/lib/python3/dist-packages/requests-2.31.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nLicense: Apache 2.0\n',
      },
      {
        'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')].join('\n'),
        'app/node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0', license: 'WTFPL' }),
      },
    ],
  }]);
  imageTar = join(work, 'shop-api-1.4.tar');
  execFileSync('tar', ['-cf', imageTar, '-C', layout, '.']);
  host = await startWebHost();
});
test.afterAll(async () => {
  await api?.dispose();
  await host?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('容器镜像：本地镜像文件分析，概览镜像信息与各层、按层筛选组件、镜像层树、组件所在层', async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  page.on('pageerror', (e) => console.log('页面错误', e.message));
  await firstLogin(page, host.launchUrl);
  api = await platformSession(page);
  const subjectId = await createSubjectOnScreen(page, host.origin, '镜像应用');
  const projectId = await newLocalProject(page, host.origin, subjectId, { codeType: '12', file: imageTar, name: 'shop-api', shot: shot('1-new') });
  const run = await waitForRun(api, projectId);
  expect(run.status, run.message).toBe(2);

  // ---- overview: the image and its layers -------------------------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}`);
  const panel = page.getByTestId('image-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('shop/api:1.4');
  await expect(panel).toContainText('Debian GNU/Linux 12 (bookworm)');
  await expect(panel).toContainText('linux/amd64');
  await expect(page.getByTestId('image-layer-0')).toContainText('第 1 层');
  await expect(page.getByTestId('image-layer-1')).toContainText('layer 2');
  await expect(page.getByTestId('image-layer-1').getByText('2', { exact: true })).toBeVisible();
  await page.screenshot({ path: shot('2-overview'), fullPage: true });

  // ---- a layer row lists its components ---------------------------------------------------------
  await page.getByTestId('image-layer-1').click();
  await expect(page).toHaveURL(/tab=component.*layer=1|layer=1.*tab=component/);
  const table = page.getByTestId('component-table');
  await expect(table.getByText('curl', { exact: true })).toBeVisible();
  await expect(table.getByText('requests', { exact: true })).toBeVisible();
  await expect(table.getByText('base-files', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel('镜像层')).toHaveValue('1');
  await page.screenshot({ path: shot('3-components-layer'), fullPage: true });
  // Every layer: the purged package is not in the image.
  await page.getByLabel('镜像层').selectOption('');
  await expect(table.getByText('base-files', { exact: true })).toBeVisible();
  await expect(table.getByText('left-pad', { exact: true })).toBeVisible();
  await expect(table.getByText('less', { exact: true })).toHaveCount(0);

  // ---- the component drawer names the layer ------------------------------------------------------
  await table.getByText('left-pad', { exact: true }).click();
  await expect(page.getByTestId('component-layer')).toContainText('第 3 层');

  // ---- 镜像层 tree: image → layers → components ---------------------------------------------------
  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=source&tree=layer`);
  const tree = page.locator('.cairn-result-tree');
  await expect(tree.getByText('shop/api:1.4')).toBeVisible();
  await tree.getByText(/^第 1 层/).click();
  await expect(tree.getByText('base-files', { exact: true })).toBeVisible();
  await tree.getByText(/^第 2 层/).click();
  await expect(tree.getByText('curl', { exact: true })).toBeVisible();
  await expect(tree.getByText('requests', { exact: true })).toBeVisible();
  await page.screenshot({ path: shot('4-layer-tree'), fullPage: true });
  await tree.getByText('curl', { exact: true }).click();
  await expect(page.getByTestId('component-layer')).toContainText('第 2 层');
});
