// The admin's first login, shared by the specs that only need a signed-in admin: the forced
// password change, then a login with the new password.
import { expect, type Page } from '@playwright/test';

export const INITIAL_PASSWORD = 'Cairn@123';
export const PASSWORD = 'Cairn#2026safe';

/** First login of admin at `launchUrl`: forced password change, then a login with the new password. */
export async function firstLogin(page: Page, launchUrl: string) {
  await page.goto(launchUrl);
  await expect(page.getByText(/运行中/).first()).toBeVisible({ timeout: 60_000 });
  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel('密码', { exact: true }).fill(INITIAL_PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/#\/changePassword/);
  await page.getByRole('textbox', { name: /^原密码/ }).fill(INITIAL_PASSWORD);
  await page.getByRole('textbox', { name: /^新密码/ }).fill(PASSWORD);
  await page.getByRole('textbox', { name: /^确认新密码/ }).fill(PASSWORD);
  await page.getByRole('button', { name: '确认修改' }).click();
  await expect(page).toHaveURL(/#\/login/);
  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/#\/project\/projectList/);
}
