import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { QUOTA_MESSAGE } from '../../demo/simulator/http';
import { FAILED_REPLY_TEXT } from '../../demo/simulator/messages';
import { ask, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 10 },
    replies: [
      { match: 'quota please', status: 402 },
      { match: 'boom please', status: 500, once: true },
      { match: 'boom please', text: 'Second time lucky.' },
      {
        match: 'stall please',
        text: 'This reply goes silent after two chunks.',
        chunkSize: 8,
        stallAfter: 2,
        stored: false,
        once: true,
      },
      { match: 'stall please', text: 'And this is the retry.' },
    ],
  });
});
afterAll(() => e2e?.close());

/** Reloads the page with extra attributes on the widget's script tag (the demo pages have none of these). */
async function withAttributes(page: Page, attributes: string) {
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('data-proxy-url=', `${attributes} data-proxy-url=`);
      await route.fulfill({ response, body: html });
    },
  );
  await page.reload();
}

const failed = 'askbox-widget .msg--failed';

describe('the message limit, as a visitor meets it', () => {
  it('shows the site’s notice and link, waits to send, keeps the draft, and tells the owner once', async () => {
    const { page, consoleWarnings } = await e2e.open('/');
    await withAttributes(
      page,
      'data-limit-message="Our assistant is resting." data-limit-link="https://shop.example/contact" data-limit-link-text="Write to us"',
    );
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { quotaEvents: unknown[] }).quotaEvents = seen;
      window.Askbox?.on('quota', (detail) => seen.push(detail));
    });
    await ask(page, 'quota please, one more');
    const notice = page.locator('askbox-widget #askbox-limit');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('Our assistant is resting. Write to us');
    expect(await notice.getAttribute('role')).toBe('status');
    expect(await page.locator('askbox-widget #askbox-limit a').getAttribute('href')).toBe(
      'https://shop.example/contact',
    );
    expect(await page.locator(W.alert).count()).toBe(0);
    expect(await page.locator(W.user).count()).toBe(0);
    expect(await page.locator(W.input).inputValue()).toBe('quota please, one more');
    expect(await page.getByRole('button', { name: 'Send message' }).isDisabled()).toBe(true);

    // The draft stays editable, and Enter sends nothing.
    await page.locator(W.input).fill('quota please, edited');
    await page.locator(W.input).press('Enter');
    // A send would add the message at once and post it: neither is there once the page has settled.
    await settle(page);
    expect(await page.locator(W.input).inputValue()).toBe('quota please, edited');
    expect(await page.locator(W.user).count()).toBe(0);

    expect(consoleWarnings.filter((w) => w.includes(QUOTA_MESSAGE))).toEqual([
      `[askbox] The chat service's message limit is reached: ${QUOTA_MESSAGE}`,
    ]);
    expect(await page.evaluate(() => (window as unknown as { quotaEvents: unknown[] }).quotaEvents)).toEqual([
      { message: QUOTA_MESSAGE },
    ]);
  });
});

describe('a 500 on send, as a visitor meets it', () => {
  it('shows the stored question and failed reply, retries without a second question, and reloads the same', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'boom please');
    await page.locator(failed, { hasText: FAILED_REPLY_TEXT }).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['boom please']);
    expect(await page.locator(W.input).inputValue()).toBe('');
    expect(await page.locator(W.alert).count()).toBe(0);
    expect(await page.locator('askbox-widget').getByRole('button', { name: 'Retry' }).count()).toBe(1);

    await page.locator(failed).getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot, { hasText: 'Second time lucky.' }).waitFor();
    expect(await page.locator(W.user).count()).toBe(1);
    expect(await page.locator(failed).count()).toBe(0);

    // The service holds the question twice (Retry had to ask again); the history shows it once.
    // Left open, the panel reopens by itself after the reload.
    await page.reload();
    await page.locator(W.bot, { hasText: 'Second time lucky.' }).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['boom please']);
    expect(await page.locator(W.bot).count()).toBe(1);
  });

  it('gives the text back when the 500 stored nothing', async () => {
    const { page } = await e2e.open('/');
    await page.route('**/askbox/messages/stream', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Server Error"}' }),
    );
    await ask(page, 'anything stored?');
    await page.locator(W.alert).waitFor();
    expect(await page.locator(W.input).inputValue()).toBe('anything stored?');
    expect(await page.locator(W.user).count()).toBe(0);
  });
});

describe('a stalled stream, as a visitor meets it', () => {
  it('says “Still working…” with Stop, then gives up after data-stream-timeout and offers Retry', async () => {
    const { page } = await e2e.open('/');
    await withAttributes(page, 'data-stream-timeout="10"');
    const started = Date.now();
    await ask(page, 'stall please');
    await page.locator(W.streaming, { hasText: 'This reply goes' }).waitFor();
    const hint = page.locator('askbox-widget .stall');
    await hint.waitFor({ timeout: 12_000 });
    expect(await hint.textContent()).toBe('Still working…');
    expect(await page.getByRole('button', { name: 'Stop generating' }).isVisible()).toBe(true);
    await page.locator(failed).waitFor({ timeout: 15_000 });
    // Ten seconds of silence, not the 45 of the default.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await hint.count()).toBe(0);
    expect(await page.locator(failed).textContent()).toContain('This reply goes');
    await page.locator(failed).getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot, { hasText: 'And this is the retry.' }).waitFor();
  }, 40_000);
});
