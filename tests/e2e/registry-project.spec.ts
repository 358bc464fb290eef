// A private-registry project (私有仓库, type 31) end to end through the web host, against a real
// docker-registry with basic auth holding an image built in code: the form's registry fields
// (image, credentials, platform select with free text, CA certificate, 允许 HTTP), the 校验 button
// failing over HTTPS and passing once 允许 HTTP is on, the form's own checks of the platform and
// the CA, the launch reaching 分析成功 with the image's packages, and the edit screen prefilled
// (the options kept, the password only as 已保存) whose 校验 uses the stored password.
// Screenshots go to test-results/registry-*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registryToolsMissing, startRegistry, writeOciLayout, type BuiltImage, type TestRegistry } from '../support/registry.ts';
import { firstLogin } from './admin-login.ts';
import { setBox } from './controls.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/registry-${name}.png`;
const REGISTRY_PASSWORD = 'Alice-Registry-Pass-7731';
const pkg = (name: string, version: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n`;

test.use({ actionTimeout: 15_000 });
test.skip(registryToolsMissing() !== null, registryToolsMissing() ?? '');

let host: WebHost;
let registry: TestRegistry;
let built: BuiltImage;
let work: string;

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cairn-e2e-registry-'));
  registry = await startRegistry({ auth: 'htpasswd', users: { pusher: 'pusher-secret', alice: REGISTRY_PASSWORD } });
  built = await writeOciLayout(join(work, 'layout'), 'app', [{
    architecture: 'amd64',
    layers: [{
      'etc/os-release': 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n',
      'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')].join('\n'),
    }],
  }]);
  await registry.push(built.layoutDir, 'app', 'team/app', '1.0');
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
  await registry?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function open(page: Page, path: string) {
  await page.goto(`${host.origin}/?load=${Date.now()}#${path}`);
}

async function bridgeCall(page: Page, request: { method: string; path: string; body?: unknown }) {
  const answer = await page.evaluate(async (r) => {
    const bridge = (window as unknown as { desktop: { api: { call: (r: unknown) => Promise<unknown> } } }).desktop;
    return bridge.api.call(r);
  }, request);
  const result = answer as { ok: boolean; value?: { code: number; message: string; data: Record<string, unknown> } };
  expect(result.ok, JSON.stringify(answer)).toBe(true);
  return result.value!;
}

test('私有仓库项目：校验、平台与 CA 校验、发起分析、编辑', async ({ page }) => {
  test.setTimeout(300_000);
  page.on('pageerror', (e) => console.log(`页面错误：${e.message}`));
  await firstLogin(page, host.launchUrl);
  const created = await bridgeCall(page, { method: 'POST', path: '/api/subject/create', body: { name: '镜像仓库应用' } });
  const subjectId = Number((created.data as { id: number }).id);
  const reference = `${registry.host}/team/app:1.0`;

  await open(page, `/project/newProject?subjectId=${subjectId}`);
  await expect(page.getByRole('heading', { name: '新建项目' })).toBeVisible();
  await page.getByLabel('来源类型').selectOption('31');
  // a registry is analysed now: no pending note, the launch button is there
  await expect(page.locator('#pf-code-type option[value="31"]')).toHaveText('私有仓库');
  await expect(page.getByRole('note')).toHaveCount(0);
  await page.getByLabel('项目名称').fill('registry-app');
  await page.getByLabel('镜像名称与标签').fill(reference);
  await page.getByLabel('用户名').fill('alice');
  await page.getByRole('textbox', { name: '密码' }).fill(REGISTRY_PASSWORD);
  await expect(page.getByLabel('平台', { exact: true })).toHaveValue('');

  // 校验 over HTTPS fails (the registry speaks plain HTTP), then passes with 允许 HTTP
  await page.getByRole('button', { name: '校验' }).click();
  const result = page.locator('.cairn-registry-check');
  await expect(result).toContainText(registry.host);
  await expect(result).not.toContainText('校验通过');
  const insecure = page.getByRole('checkbox', { name: '允许 HTTP（不加密）' });
  await setBox(insecure);
  await expect(page.getByText('仅用于只提供 HTTP 的内网仓库').first()).toBeVisible();
  await expect(result).toContainText('表单已修改');
  await page.getByRole('button', { name: '校验' }).click();
  await expect(result).toContainText('校验通过');
  await expect(result).toContainText(built.platforms['linux/amd64']!.manifest);
  await expect(result).not.toContainText('表单已修改');
  await page.screenshot({ path: shot('1-checked'), fullPage: true });

  // the platform: a common one from the select, or any other typed; its syntax is checked
  await page.getByLabel('平台', { exact: true }).selectOption('linux/arm64');
  await page.getByRole('button', { name: '校验' }).click();
  await expect(result).toContainText('linux/arm64');
  await expect(result).not.toContainText('校验通过');
  await page.getByLabel('平台', { exact: true }).selectOption('__other');
  const platformText = page.getByPlaceholder('操作系统/架构[/变体]，例如 linux/mips64le');
  await platformText.fill('amd64');
  // the CA must be a certificate
  await page.getByLabel('CA 证书').fill('not a certificate');
  await page.getByRole('button', { name: '保存并发起分析' }).click();
  await expect(page.getByText(/平台格式不正确/).first()).toBeVisible();
  await expect(page.getByText(/没有找到 PEM 格式的证书/).first()).toBeVisible();
  await page.screenshot({ path: shot('2-invalid'), fullPage: true });
  await platformText.fill('linux/amd64');
  await page.getByLabel('CA 证书').fill('');
  await page.getByRole('button', { name: '保存并发起分析' }).click();
  await expect(page.getByText('任务发起成功！').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/project\/analysis\/details\?projectId=\d+/);
  const projectId = Number(/projectId=(\d+)/.exec(page.url())?.[1]);

  await open(page, `/project/taskList?subjectId=${subjectId}`);
  const row = page.locator('table.cairn-task-table tbody tr').filter({ has: page.getByRole('link', { name: 'registry-app', exact: true }) });
  await expect(row.locator('.cairn-col-status')).toContainText('分析成功', { timeout: 180_000 });
  const list = await bridgeCall(page, { method: 'POST', path: `/api/component/list/${projectId}?size=50`, body: {} });
  expect((list.data.content as Array<{ name: string }>).map((c) => c.name).sort()).toEqual(['base-files', 'curl']);

  // the edit screen: options prefilled, the password kept; 校验 uses the stored one
  await open(page, `/project/analysis/launch?projectId=${projectId}`);
  await expect(page.getByLabel('镜像名称与标签')).toHaveValue(reference);
  await expect(page.getByRole('textbox', { name: '密码' })).toHaveValue('');
  await expect(page.getByText('已保存密码，留空则保持不变')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: '允许 HTTP（不加密）' })).toBeChecked();
  await expect(page.getByLabel('平台', { exact: true })).toHaveValue('linux/amd64');
  await page.getByRole('button', { name: '校验' }).click();
  await expect(page.locator('.cairn-registry-check')).toContainText('校验通过');
  await page.screenshot({ path: shot('3-edit'), fullPage: true });
  const stored = await bridgeCall(page, { method: 'GET', path: `/api/project/${projectId}` });
  expect(stored.data.source).toMatchObject({ imageInsecure: true, imagePlatform: 'linux/amd64', hasImagePassword: true });
});
