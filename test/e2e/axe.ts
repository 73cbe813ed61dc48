import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** One axe-core violation, reduced to what a failing test needs to say. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.0–2.2 A and AA rules, plus best practices) over the widget in `page`, shadow root
 * included, and returns its violations. The source is evaluated through the DevTools protocol, so the page's
 * own CSP does not block it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const script = `(async () => {
    const result = await window.axe.run({ include: [['askbox-widget']] }, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  })()`;
  return (await page.evaluate(script)) as AxeViolation[];
}
