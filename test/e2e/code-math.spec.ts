import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, atRest, holdFile, settle, startE2E, W } from './harness';

// No scripted replies: the simulator answers from demo/kb, whose developer guide holds a fenced code block and math.
let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const CODE_QUESTION = 'Show me the JavaScript snippet';
const MATH_QUESTION = 'What is the overage formula?';
const ADDON = /\/askbox-(code|math)\.[\w-]+\.js$/;

/** The add-on files the page asked for, by kind. */
const addonRequests = (requests: string[]) => requests.flatMap((r) => ADDON.exec(r)?.[1] ?? []);

/** Asks `question` and waits for the finished reply. */
async function answered(page: Page, question: string, count: number) {
  await ask(page, question);
  await page
    .locator(W.bot)
    .nth(count - 1)
    .waitFor();
}

/** The block's height and the log's scroll position. */
const placeOf = (pre: Locator) =>
  pre.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    scroll: el.closest('.log, [role="log"]')?.scrollTop ?? 0,
  }));

describe('highlighted code and math, loaded only when needed (Chromium, through the proxy)', () => {
  it('loads no add-on for a plain reply', async () => {
    const { page, requests, consoleWarnings } = await e2e.open('/plain.html');
    await answered(page, 'How much does shipping cost?', 1);
    await settle(page);
    expect(addonRequests(requests)).toEqual([]);
    expect(consoleWarnings).toEqual([]);
  });

  it('highlights a fenced code block with its token colours, loading the code add-on only', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/plain.html');
    await answered(page, CODE_QUESTION, 1);
    const token = page.locator(`${W.bot} pre code .hljs-string`).first();
    await token.waitFor();
    await settle(page);
    expect(addonRequests(requests)).toEqual(['code']);
    expect(await page.locator(`${W.bot} pre code`).first().textContent()).toContain('const total = lines.reduce');
    // The token colours arrived with the add-on: a string is not drawn in the text's colour.
    const colours = await token.evaluate((el) => [
      getComputedStyle(el).color,
      getComputedStyle(el.closest('pre')!).color,
    ]);
    expect(colours[0]).not.toBe(colours[1]);
    expect(consoleErrors).toEqual([]);
  });

  it('typesets inline and display math as MathML, loading the math add-on only', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/plain.html');
    await answered(page, MATH_QUESTION, 1);
    await page.locator(`${W.bot} math[display="block"]`).waitFor();
    await settle(page);
    expect(addonRequests(requests)).toEqual(['math']);
    const maths = await page
      .locator(`${W.bot} math`)
      .evaluateAll((els) => els.map((el) => ({ ns: el.namespaceURI, height: el.getBoundingClientRect().height })));
    expect(maths.length).toBeGreaterThanOrEqual(3);
    for (const math of maths) expect(math.ns).toBe('http://www.w3.org/1998/Math/MathML');
    // Laid out by the browser's MathML engine: the display formula's fraction stands taller than an inline letter.
    expect(Math.max(...maths.map((m) => m.height))).toBeGreaterThan(Math.min(...maths.map((m) => m.height)) * 1.5);
    expect(await page.locator(`${W.bot} math mfrac`).count()).toBe(1);
    expect(consoleErrors).toEqual([]);
  });

  it('upgrades a finished code block in place: same height, same scroll position', async () => {
    const { page } = await e2e.open('/plain.html');
    const release = await holdFile(page, /askbox-code\.[\w-]+\.js$/);
    await answered(page, CODE_QUESTION, 1);
    const pre = page.locator(`${W.bot} pre`).first();
    const before = await atRest(page, () => placeOf(pre));
    expect(await page.locator(`${W.bot} .hljs-string`).count()).toBe(0);
    release();
    await page.locator(`${W.bot} .hljs-string`).first().waitFor();
    const after = await atRest(page, () => placeOf(pre));
    expect(after).toEqual(before);
  });

  it('on a strict-CSP page, loads both add-ons with the nonce, with no violation', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/csp.html');
    await answered(page, CODE_QUESTION, 1);
    await answered(page, MATH_QUESTION, 2);
    await page.locator(`${W.bot} .hljs-string`).first().waitFor();
    await page.locator(`${W.bot} math`).first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
  });

  it('keeps the reply readable when an add-on fails its integrity check: plain code, one warning', async () => {
    const { page, consoleWarnings } = await e2e.open('/plain.html');
    await page.route(/askbox-code\.[\w-]+\.js$/, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'window.tampered = 1;' }),
    );
    await answered(page, CODE_QUESTION, 1);
    await expect.poll(() => consoleWarnings.filter((w) => w.startsWith('[askbox]')).length, { timeout: 5000 }).toBe(1);
    expect(await page.locator(`${W.bot} pre code`).first().textContent()).toContain('const total = lines.reduce');
    expect(await page.locator(`${W.bot} [class^="hljs"]`).count()).toBe(0);
    expect(await page.evaluate(() => 'tampered' in window)).toBe(false);
  });
});
