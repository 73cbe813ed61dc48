import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../src/config/chat-text';
import type { ProxyLogEntry } from '../../src/proxy/core/options';
import { ask, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;
/** The proxy's `feedback` lines: where a rating goes by default (see README, "Where ratings go"). */
const logged: { comment?: string }[] = [];

beforeAll(async () => {
  e2e = await startE2E(
    {
      replies: [{ match: 'plans', text: 'We have **two** plans.' }],
    },
    {
      log: (entry: ProxyLogEntry) => {
        if (entry.event === 'feedback') logged.push(JSON.parse(entry.message ?? '{}') as { comment?: string });
      },
    },
  );
});
afterAll(() => e2e?.close());

const DOWN = `${W.bot} button[aria-label="${CHAT_TEXT.rateDown}"]`;

/** A page with one answered question whose widget counts its `feedback` events (`window.rated`). */
async function answered(question = 'Which plans?') {
  const opened = await e2e.open('/plain.html');
  await ask(opened.page, question);
  await opened.page.locator(DOWN).waitFor();
  await opened.page.evaluate(() => {
    const page = window as unknown as {
      rated: unknown[];
      Askbox: { on(type: string, fn: (d: unknown) => void): void };
    };
    page.rated = [];
    page.Askbox.on('feedback', (detail) => page.rated.push(detail));
  });
  return opened;
}

/** The proxy's feedback lines once the page's requests so far are answered; the widget's POSTs to /feedback. */
async function sent(opened: { page: Page; requests: string[] }, lines: number) {
  await expect.poll(() => logged.length, { timeout: 10_000 }).toBe(lines);
  await settle(opened.page);
  return opened.requests.filter((request) => request === 'POST /askbox/feedback').length;
}

describe('a thumbs-down and its comment, through the proxy and the simulator (Chromium)', () => {
  it('is one request, one log line and one `feedback` event, with the comment', async () => {
    logged.length = 0;
    const opened = await answered();
    const { page } = opened;
    await page.locator(DOWN).click();
    await page.getByLabel(CHAT_TEXT.comment).fill('Out of date');
    await settle(page);
    // Held while the visitor writes.
    expect(opened.requests).not.toContain('POST /askbox/feedback');
    await page.locator('askbox-widget .comment button[type="submit"]').click();
    expect(await sent(opened, 1)).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ rating: 'down', comment: 'Out of date' })]);
    expect(await page.evaluate(() => (window as unknown as { rated: unknown[] }).rated)).toEqual([
      expect.objectContaining({ rating: 'down', comment: 'Out of date' }),
    ]);
  });

  it('skipped, is one request and one line, without a comment', async () => {
    logged.length = 0;
    const opened = await answered();
    await opened.page.locator(DOWN).click();
    await opened.page.getByRole('button', { name: CHAT_TEXT.skip }).click();
    expect(await sent(opened, 1)).toBe(1);
    expect(logged).toEqual([expect.not.objectContaining({ comment: expect.anything() })]);
    expect(await opened.page.evaluate(() => (window as unknown as { rated: unknown[] }).rated)).toHaveLength(1);
  });

  it('left with the box open (pagehide), is sent once as the page goes', async () => {
    logged.length = 0;
    const opened = await answered();
    await opened.page.locator(DOWN).click();
    await opened.page.getByLabel(CHAT_TEXT.comment).waitFor();
    await settle(opened.page);
    expect(logged).toEqual([]);
    // The page goes (its requests are no longer the page's to report): the proxy's log tells what reached it.
    await opened.page.goto(`${e2e.url}/plain.html`);
    await expect.poll(() => logged.length, { timeout: 10_000 }).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ rating: 'down' })]);
  });
});
