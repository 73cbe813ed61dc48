import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'quota', status: 402 }] });
});
afterAll(() => e2e?.close());

/** Every shape a visitor needs to see, by selector inside the widget. */
const SHAPES = [
  '.launcher',
  '.panel',
  '.head',
  '.head .icon-button',
  '.msg--user',
  '.msg--bot',
  '.notice:not(:empty)',
  '.composer',
  '.input',
  '.send',
];

/** The parts of SHAPES with no visible edge: no border side and no outline that is drawn and not transparent. */
function edgeless(page: Page) {
  return page.evaluate((selectors) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    return selectors.filter((selector) => {
      const element = root?.querySelector(selector);
      if (!element) return true;
      const style = getComputedStyle(element);
      const sides = ['Top', 'Right', 'Bottom', 'Left'] as const;
      // oxlint-disable-next-line unicorn/consistent-function-scoping -- page.evaluate sends this one function alone
      const drawn = (width: string, kind: string, colour: string) =>
        parseFloat(width) > 0 && kind !== 'none' && kind !== 'hidden' && !/rgba\(.*, 0\)$|transparent/.test(colour);
      return !(
        sides.some((side) =>
          drawn(style[`border${side}Width`], style[`border${side}Style`], style[`border${side}Color`]),
        ) || drawn(style.outlineWidth, style.outlineStyle, style.outlineColor)
      );
    });
  }, SHAPES);
}

/** An open panel with a question, its answer, and a notice (the 402 of a second question). */
async function everyShape(page: Page) {
  await ask(page, 'What do you ship?');
  await page.locator(W.bot).waitFor();
  await ask(page, 'over quota?');
  await page.locator('askbox-widget .notice--limit').waitFor();
}

describe('forced colours and reduced transparency (Chromium)', () => {
  it('keeps every shape in forced colours (Windows high contrast), axe-clean', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.emulateMedia({ forcedColors: 'active' });
    await everyShape(page);
    expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true);
    expect(await edgeless(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('makes see-through parts solid and drops shadows when the visitor asks for less transparency', async () => {
    const { page } = await e2e.open('/plain.html');
    // Playwright has no option for this media feature yet; the DevTools protocol has.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-reduced-transparency', value: 'reduce' }],
    });
    await everyShape(page);
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-transparency: reduce)').matches)).toBe(true);
    const look = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const user = root?.querySelector('.msg--user');
      // A question waiting for the service's receipt is drawn like this.
      user?.classList.add('msg--pending');
      const style = (selector: string) => getComputedStyle(root?.querySelector(selector) ?? document.body);
      return {
        pending: user ? getComputedStyle(user).opacity : 'missing',
        panel: style('.panel').boxShadow,
        launcher: style('.launcher').boxShadow,
      };
    });
    const none = 'rgba(0, 0, 0, 0) 0px 0px 0px 0px';
    expect(look).toEqual({ pending: '1', panel: none, launcher: none });
    // The launcher's focus halo stays.
    await page.locator(W.launcher).focus();
    expect(await page.locator(W.launcher).evaluate((el) => getComputedStyle(el).boxShadow)).toBe(
      `rgb(255, 255, 255) 0px 0px 0px 2px, ${none}`,
    );
  });
});
