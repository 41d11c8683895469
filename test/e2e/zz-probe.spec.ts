import AxeBuilder from '@axe-core/playwright';
import { test } from '@playwright/test';
test('probe', async ({ page }) => {
  await page.goto('/APIs/service/black-forest-labs/flux-schnell');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  const r = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  for (const v of r.violations) for (const n of v.nodes.slice(0, 4)) console.log('VIOL', n.target.join(' '), n.failureSummary?.replace(/\n/g, ' | '));
});
