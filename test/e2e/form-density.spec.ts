import { expect, test, type Page } from '@playwright/test';
import { signInByApi } from './support/accounts';

const PUBLISHER = { email: 'publisher@limelight.dev', password: 'limelight-publisher' };

// One form density (issue 39, item 4): a field of the account area and one of the service editor
// measure the same (label size, the gap under it, the control's height and text size), at both
// widths; both take their field and control from theme/controls.css.ts.
async function fieldMetrics(page: Page, input: ReturnType<Page['locator']>) {
  await expect(input).toBeVisible();
  return input.evaluate((control: HTMLInputElement) => {
    const label = document.querySelector(`label[for="${control.id}"]`)!;
    const box = control.getBoundingClientRect();
    return {
      labelSize: getComputedStyle(label).fontSize,
      labelWeight: getComputedStyle(label).fontWeight,
      gap: Math.round(box.top - label.getBoundingClientRect().bottom),
      height: Math.round(box.height),
      textSize: getComputedStyle(control).fontSize,
    };
  });
}

test('one form density: the profile’s fields and the editor’s measure the same at 1280 and 390 px', async ({ page }) => {
  await signInByApi(page, PUBLISHER.email, PUBLISHER.password);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/account/profile');
    const account = await fieldMetrics(page, page.locator('main form input[type="text"]').first());
    await page.goto('/APIs/edit/new');
    const editor = await fieldMetrics(page, page.getByRole('textbox', { name: 'Name', exact: true }));
    expect(editor, `at ${width} px`).toEqual(account);
  }
});
