// Blueprint controls driven as a user would, without the races of its open transitions.
import { expect, type Locator } from '@playwright/test';

/**
 * Sets a Blueprint checkbox. Its <input> sits under the drawn indicator, so the click is forced;
 * a forced click skips Playwright's wait for a stable box, and a dialog still scaling in (its
 * open transition) can let the click land beside the input. So: wait for the transitions to end,
 * and retry until the box holds the wanted state (a box already in it is never clicked again).
 */
export async function setBox(box: Locator, on = true): Promise<void> {
  await expect(box.page().locator('.bp6-overlay-enter-active, .bp6-overlay-appear-active')).toHaveCount(0);
  await expect(async () => {
    if ((await box.isChecked()) !== on) await box.click({ force: true });
    await expect(box).toBeChecked({ checked: on, timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}
