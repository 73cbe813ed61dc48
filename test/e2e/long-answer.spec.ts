import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames, ask, atRest, startE2E, W } from './harness';

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

/**
 * Where the last question and its reply sit in the log: their tops and the question's bottom against the log's top,
 * the log's visible height, and how far the log is from its bottom.
 */
function placement(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const log = root?.querySelector('.log');
    const replies = root?.querySelectorAll('.msg--bot:not(.msg--welcome)');
    const reply = replies?.[replies.length - 1];
    const question = reply?.previousElementSibling;
    if (!log || !reply || !question) return null;
    const top = log.getBoundingClientRect().top;
    return {
      top: Math.round(reply.getBoundingClientRect().top - top),
      question: {
        top: question.getBoundingClientRect().top - top,
        bottom: question.getBoundingClientRect().bottom - top,
      },
      height: log.clientHeight,
      fromBottom: Math.round(log.scrollHeight - log.scrollTop - log.clientHeight),
    };
  });
}

describe('a long answer (Chromium)', () => {
  it('is followed until its question reaches the top of the log, then stays there, with "jump to latest"', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'A long one, please');
    await page.locator(W.bot, { hasText: 'Paragraph 40' }).waitFor();
    const landed = await atRest(page, () => placement(page));
    // The short question whole at the top, its answer's start under it.
    expect(landed?.question.top).toBeGreaterThanOrEqual(0);
    expect(landed?.question.top).toBeLessThanOrEqual(16);
    expect(landed?.top).toBeLessThanOrEqual(100);
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
    await page.getByRole('button', { name: 'Jump to the latest message' }).waitFor();
    const landed = await atRest(page, () => placement(page));
    expect(landed?.question.top).toBeGreaterThanOrEqual(0);
    expect(landed?.question.top).toBeLessThanOrEqual(16);
    expect(landed?.fromBottom).toBeGreaterThan(0);
  });

  it('lands with the question above it whole or wholly scrolled away, never cut under the header', async () => {
    // A table answer after an earlier one, in a short window: the log used to stop 13 px short, half a question shown.
    const { page } = await e2e.open('/plain.html', { width: 1000, height: 600 });
    await ask(page, 'How do returns work?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await ask(page, 'Which plans do you have and what do they cost?');
    await page.locator(W.bot, { hasText: 'Business' }).locator('.sources').waitFor();
    await page.getByRole('button', { name: 'Jump to the latest message' }).waitFor();
    const { question, top, height } = (await atRest(page, () => placement(page)))!;
    const whole = question.top >= -0.5 && question.bottom <= height + 0.5;
    const away = question.bottom <= 0.5 || question.top >= height - 0.5;
    expect(whole || away, JSON.stringify(question)).toBe(true);
    // The reply's start is in view.
    expect(top, JSON.stringify({ question, top, height })).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height);
  });

  it('scrolls a question taller than a quarter of the log wholly away above its long reply', async () => {
    const { page } = await e2e.open('/plain.html', { width: 1000, height: 600 });
    await ask(page, `A long one, please. ${'Tell me every detail of it. '.repeat(12)}`);
    await page.locator(W.bot, { hasText: 'Paragraph 40' }).waitFor();
    const landed = (await atRest(page, () => placement(page)))!;
    expect(landed.question.bottom - landed.question.top).toBeGreaterThan(landed.height / 4);
    expect(landed.question.bottom).toBeLessThanOrEqual(0);
    expect(landed.top).toBeGreaterThanOrEqual(0);
    expect(landed.top).toBeLessThanOrEqual(16);
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
