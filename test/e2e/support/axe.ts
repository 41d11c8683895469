import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * An axe audit of `page`: chain include() if needed, then analyze(). By default AxeBuilder runs
 * axe in every frame (axe.runPartial) and combines the results in a blank page it opens for
 * that (axe.finishRun), which exists for cross-origin iframes; on a page without iframes that
 * second page was most of an audit (3.5-5.5 s against 1.5-1.9 s for axe.run in the page, a
 * service page at load 8). Such a page is audited with axe.run in the page itself (legacy
 * mode): the same axe-core, rules and options on the same document, and the same results
 * (compared rule by rule and node by node on the service, catalogue, sign-up and pricing
 * pages). A page with an iframe keeps the default, so cross-origin frames stay audited.
 */
export function axeAudit(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1);
}
