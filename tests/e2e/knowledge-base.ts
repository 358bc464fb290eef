// Steps shared by the knowledge-base specs: a zip of advisory files written as OSV's dumps are
// laid out, and the administrator's home on an empty knowledge base.
import { writeFileSync } from 'node:fs';
import yazl from 'yazl';
import { expect, type Locator, type Page } from '@playwright/test';

/** Writes `target`, a zip of [file on disk, name in the zip] pairs. */
export async function writeZip(target: string, entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [file, name] of entries) zip.addFile(file, name);
  zip.end();
  const parts: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => parts.push(c));
    zip.outputStream.on('end', () => resolve());
    zip.outputStream.on('error', reject);
  });
  writeFileSync(target, Buffer.concat(parts));
}

/** Opens the home page and checks that it tells the administrator the knowledge base is empty; its card. */
export async function expectEmptyKnowledgeBase(page: Page, origin: string, shot: string): Promise<Locator> {
  await page.goto(`${origin}/#/home/result`);
  const card = page.getByTestId('kb-home-card');
  await expect(card.getByTestId('kb-empty-callout')).toContainText('请先导入漏洞数据');
  await expect(card.getByTestId('kb-total')).toHaveText('0');
  await page.screenshot({ path: shot });
  return card;
}
