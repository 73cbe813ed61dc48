import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames, ask, startE2E, W } from './harness';

const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long answer, with enough words to wrap.`);

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'long', text: LONG.join('\n\n'), chunkSize: 30, delayMs: 5 },
      { match: 'short', text: 'A short answer.' },
    ],
  });
});
afterAll(() => e2e?.close());

/** Where the last reply sits in the log: its top against the log's, and how far the log is from its bottom. */
function placement(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const log = root?.querySelector('.log');
    const replies = root?.querySelectorAll('.msg--bot:not(.msg--welcome)');
    const reply = replies?.[replies.length - 1];
    if (!log || !reply) return null;
    return {
      top: Math.round(reply.getBoundingClientRect().top - log.getBoundingClientRect().top),
      fromBottom: Math.round(log.scrollHeight - log.scrollTop - log.clientHeight),
    };
  });
}

describe('a long answer (Chromium)', () => {
  it('is followed until its start reaches the top of the log, then stays there, with "jump to latest"', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'A long one, please');
    await page.locator(W.bot, { hasText: 'Paragraph 40' }).waitFor();
    const landed = await placement(page);
    expect(landed?.top).toBeGreaterThanOrEqual(0);
    expect(landed?.top).toBeLessThanOrEqual(16);
    expect(landed?.fromBottom).toBeGreaterThan(500);
    await page.getByRole('button', { name: 'Jump to the latest message' }).click();
    await expect.poll(async () => (await placement(page))?.fromBottom).toBeLessThanOrEqual(1);

    // A short answer after it is followed to the end, as before.
    await ask(page, 'And a short one');
    await page.locator(W.bot, { hasText: 'A short answer.' }).waitFor();
    await expect.poll(async () => (await placement(page))?.fromBottom).toBeLessThanOrEqual(1);
  });

  it('keeps the start in view when the reply outgrows the log only once complete, with its sources', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'How do returns work?');
    await page.locator(`${W.bot} .sources`).waitFor();
    // The log settles on the reply's start in the frames after the sources are laid out (later on a busy machine).
    await expect.poll(async () => (await placement(page))?.top).toBeLessThanOrEqual(16);
    const landed = await placement(page);
    expect(landed?.top).toBeGreaterThanOrEqual(0);
    expect(landed?.fromBottom).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Jump to the latest message' }).waitFor();
  });

  it('opens at the latest message after a reload, a long answer above it', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'A long one, please');
    await page.locator(W.bot, { hasText: 'Paragraph 40' }).waitFor();
    await ask(page, 'And a short one');
    await page.locator(W.bot, { hasText: 'A short answer.' }).waitFor();
    // Left open, the panel reopens by itself, the history restored.
    await page.reload();
    await page.locator(W.bot, { hasText: 'A short answer.' }).waitFor();
    await animationFrames(page);
    const boxes = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const log = root?.querySelector('.log')?.getBoundingClientRect();
      const last = [...(root?.querySelectorAll('.msg') ?? [])].at(-1)?.getBoundingClientRect();
      return log && last && { log: { top: log.top, bottom: log.bottom }, last: { top: last.top, bottom: last.bottom } };
    });
    expect(boxes?.last.top, JSON.stringify(boxes)).toBeGreaterThanOrEqual((boxes?.log.top ?? 0) - 1);
    expect(boxes?.last.bottom, JSON.stringify(boxes)).toBeLessThanOrEqual((boxes?.log.bottom ?? 0) + 1);
    expect(await page.getByRole('button', { name: 'Jump to the latest message' }).count()).toBe(0);
  });
});
