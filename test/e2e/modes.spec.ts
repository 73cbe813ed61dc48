import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'ship', text: 'We ship to 40 countries.' },
      { match: 'broken', status: 500, text: 'Sorry, that went wrong.', failedResponding: true, once: true },
      { match: 'broken', text: 'Fixed on the second try.' },
    ],
  });
});
afterAll(() => e2e?.close());

describe('whole replies (data-stream="false")', () => {
  it('asks POST /messages and shows the reply with its sources, never opening a stream', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/whole.html');
    await page.locator(W.input).fill('What do you ship?');
    await page.locator(W.input).press('Enter');
    await page.locator(W.bot, { hasText: 'We ship to 40 countries' }).waitFor();
    await page.locator('askbox-widget .sources').waitFor();
    expect(requests).toContain('POST /askbox/messages');
    expect(requests.filter((r) => r.includes('/stream'))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('after a 500 shows the stored failed reply with Retry, and Retry asks again with the question shown once', async () => {
    const { page } = await e2e.open('/whole.html');
    await page.locator(W.input).fill('This is broken');
    await page.locator(W.input).press('Enter');
    await page.locator(W.bot, { hasText: 'Sorry, that went wrong.' }).waitFor();
    await page.locator(W.panel).getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot, { hasText: 'Fixed on the second try.' }).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['This is broken']);
    expect(await page.locator(W.bot).count()).toBe(1);
  });
});
