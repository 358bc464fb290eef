// Binary composition analysis end to end at 1440×900 (issue 17): a binary 应用's upload — a WAR
// built here from Debian's commons-lang3 and commons-io jars, and Debian's zlib shared library —
// analysed with 二进制检测 (mode 8) lists the jars' Maven components and zlib, and the component
// drawer says how each was identified: 识别依据 (the nested pom.properties path, or the version
// string with its byte offset) and 置信度 (100 % for pom.properties, 70 % for a version string).
// Screenshots go to test-results/binary-components-*.png.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { firstLogin } from './admin-login.ts';
import { call, platformSession } from './platform-session.ts';
import { waitForRun } from './project-flows.ts';
import { startWebHost, type WebHost } from './web-host.ts';

const shot = (name: string) => `test-results/binary-components-${name}.png`;
const LANG3 = '/usr/share/java/commons-lang3.jar';
const IO = '/usr/share/java/commons-io.jar';
const ZLIB = '/usr/lib/x86_64-linux-gnu/libz.so.1';

test.use({ actionTimeout: 15_000, viewport: { width: 1440, height: 900 } });

let host: WebHost;
const work = mkdtempSync(path.join(tmpdir(), 'cairn-e2e-binary-'));
test.beforeAll(async () => { host = await startWebHost(); });
test.afterAll(async () => {
  await host?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** release.zip: shop.war (WEB-INF/lib/commons-lang3.jar, commons-io.jar) and lib/libz.so.1. */
function releaseZip(): string {
  const war = path.join(work, 'war');
  mkdirSync(path.join(war, 'WEB-INF', 'lib'), { recursive: true });
  copyFileSync(LANG3, path.join(war, 'WEB-INF', 'lib', 'commons-lang3.jar'));
  copyFileSync(IO, path.join(war, 'WEB-INF', 'lib', 'commons-io.jar'));
  const release = path.join(work, 'release');
  mkdirSync(path.join(release, 'lib'), { recursive: true });
  execFileSync('zip', ['-qr', path.join(release, 'shop.war'), '.'], { cwd: war });
  copyFileSync(ZLIB, path.join(release, 'lib', 'libz.so.1'));
  const zip = path.join(work, 'release.zip');
  execFileSync('zip', ['-qr', zip, '.'], { cwd: release });
  return zip;
}

async function analyseBinary(api: APIRequestContext, file: string): Promise<number> {
  const subject = await call<{ id: number }>(api, 'POST', '/api/binary/subject/create', { name: '商城发布包', description: '', importance: 3 });
  const bytes = readFileSync(file);
  const upload = await call<{ uploadId: string }>(api, 'POST', '/api/upload', { fileName: 'release.zip', size: bytes.length });
  const put = await api.put(`/api/upload/${upload.uploadId}?offset=0`, { data: bytes, headers: { 'content-type': 'application/octet-stream' } });
  expect((await put.json()).code).toBe(1);
  const launched = await call<{ projectId: number }>(api, 'POST', '/api/analysis', { subjectId: subject.id, projectName: 'shop-2.1', getCodeType: 16, uploadId: upload.uploadId, analysisModes: '1,8' });
  expect((await waitForRun(api, launched.projectId)).status).toBe(2);
  return launched.projectId;
}

test('二进制检测：WAR 中的 jar 与共享库被识别，组件详情给出识别依据与置信度', async ({ page }) => {
  test.skip(![LANG3, IO, ZLIB].every(existsSync), 'Debian 的 libcommons-lang3-java、libcommons-io-java 与 zlib1g 未安装');
  test.setTimeout(300_000);
  await firstLogin(page, host.launchUrl);
  const api = await platformSession(page);
  const projectId = await analyseBinary(api, releaseZip());

  await page.goto(`${host.origin}/#/project/analysis/details?projectId=${projectId}&tab=component`);
  const table = page.getByTestId('component-table');
  await expect(table).toContainText('org.apache.commons:commons-lang3');
  await expect(table).toContainText('zlib');
  await page.screenshot({ path: shot('1-components'), fullPage: true });

  // The jar inside the war: identified by its pom.properties, certain.
  await table.getByText('org.apache.commons:commons-lang3').first().click();
  const drawer = page.locator('.cairn-result-drawer');
  await expect(drawer.getByTestId('component-confidence')).toHaveText('100%');
  const evidence = drawer.getByRole('table', { name: '识别依据' });
  await expect(evidence).toContainText('pom.properties');
  await expect(evidence).toContainText(/shop\.war!\/WEB-INF\/lib\/commons-lang3\.jar!\/META-INF\/maven\/org\.apache\.commons\/commons-lang3\/pom\.properties/);
  await page.screenshot({ path: shot('2-jar-evidence') });
  await page.keyboard.press('Escape');

  // The shared library: its embedded version string, with the offset it was read at.
  await table.getByText(/^zlib$/).first().click();
  await expect(drawer.getByTestId('component-confidence')).toHaveText('70%');
  const zlibEvidence = drawer.getByRole('table', { name: '识别依据' });
  await expect(zlibEvidence).toContainText('版本字符串');
  await expect(zlibEvidence).toContainText('lib/libz.so.1');
  await expect(zlibEvidence).toContainText(/0x[0-9a-f]+/);
  await page.screenshot({ path: shot('3-library-evidence') });
});
