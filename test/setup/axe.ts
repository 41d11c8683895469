import axe from 'axe-core';

/**
 * Runs axe on a container (or the document) in the browser and fails with a readable list of
 * violations. Every component test ends with it.
 */
export async function expectNoAxeViolations(context: Element | Document = document, options: axe.RunOptions = {}) {
  const results = await axe.run(context as axe.ElementContext, { resultTypes: ['violations'], ...options });
  if (results.violations.length > 0) {
    const report = results.violations
      .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
      .join('\n');
    throw new Error(`axe found ${results.violations.length} violation(s):\n${report}`);
  }
}
