// Shared steps of the specs that need an analysed project: a subject made on the subject list,
// a local-upload project made on 新建项目 (file dropped or picked), and waiting for its run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { call } from './platform-session.ts';
import { CORPORA } from './web-host.ts';

/** Zips these folders of trivy's test repositories (../shared/corpora/trivy/repo) into `target`, a project upload. */
export function zipTrivyRepos(target: string, folders: string[]): string {
  execFileSync('zip', ['-qr', target, ...folders], { cwd: join(CORPORA, 'trivy', 'repo') });
  return target;
}

/** Creates a subject on the subject list (新建应用) and opens its task list; the subject's id. */
export async function createSubjectOnScreen(page: Page, origin: string, name: string): Promise<number> {
  await page.goto(`${origin}/#/project/projectList?product=1`);
  await page.getByRole('button', { name: '新建应用' }).first().click();
  const dialog = page.getByRole('dialog', { name: '新建应用' });
  await dialog.getByLabel('应用名称').fill(name);
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('添加成功！').first()).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(/#\/project\/taskList\?subjectId=\d+/);
  return Number(new URL(page.url().replace('#/', '')).searchParams.get('subjectId'));
}

/** Drops a file onto the upload zone as the browser does (a DataTransfer on a drop event). */
export async function dropFile(page: Page, file: string, zoneSelector = '.cairn-upload-zone') {
  const bytes = readFileSync(file).toString('base64');
  const name = file.split('/').at(-1)!;
  const transfer = await page.evaluateHandle(({ data, fileName }) => {
    const raw = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([raw], fileName, { type: 'application/zip' }));
    return dt;
  }, { data: bytes, fileName: name });
  const zone = page.locator(zoneSelector).first();
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

/** Fills 新建项目 for a local-upload type, drops or picks the file and launches: the project's id. */
export async function newLocalProject(
  page: Page,
  origin: string,
  subjectId: number,
  opts: { codeType: string; file: string; name: string; drop?: boolean; shot?: string; beforeLaunch?: (page: Page) => Promise<void> },
): Promise<number> {
  await page.goto(`${origin}/#/project/newProject?subjectId=${subjectId}`);
  await expect(page.getByRole('heading', { name: '新建项目' })).toBeVisible();
  await page.getByLabel('来源类型').selectOption(opts.codeType);
  await page.getByLabel('项目名称').fill(opts.name);
  if (opts.drop) await dropFile(page, opts.file);
  else await page.locator('.cairn-project-form input[type=file]').first().setInputFiles(opts.file);
  await expect(page.getByText(/已上传/).first()).toBeVisible({ timeout: 60_000 });
  await opts.beforeLaunch?.(page);
  if (opts.shot) await page.screenshot({ path: opts.shot, fullPage: true });
  await page.getByRole('button', { name: '保存并发起分析' }).click();
  await expect(page.getByText('任务发起成功！').first()).toBeVisible();
  await expect(page).toHaveURL(/#\/project\/analysis\/details\?projectId=\d+/);
  return Number(new URL(page.url().replace('#/', '')).searchParams.get('projectId'));
}

/** Waits on the platform until the project's latest run ends; its progress row. */
export async function waitForRun(api: APIRequestContext, projectId: number): Promise<{ status: number; message: string; progress: number }> {
  let last: { status: number; message: string; progress: number } | undefined;
  await expect
    .poll(async () => {
      last = (await call<Array<{ status: number; message: string; progress: number }>>(api, 'GET', `/api/project-task-view/progress?projectIds=${projectId}`))[0];
      return last?.status;
    }, { timeout: 300_000 })
    .toBeGreaterThanOrEqual(2);
  return last!;
}
