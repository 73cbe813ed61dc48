import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGE } from '../../demo/simulator/http';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 10 },
    replies: [
      { match: 'quota please', status: 402 },
      { match: 'flaky question', failedResponding: true, once: true },
      { match: 'flaky question', text: 'Second time lucky.' },
      { match: 'cut please', text: 'This reply arrives whole after a cut.', chunkSize: 5, cutAfter: 2 },
      {
        match: 'lost please',
        text: 'Only part of this ever arrives.',
        chunkSize: 5,
        cutAfter: 2,
        stored: false,
        once: true,
      },
      { match: 'lost please', text: 'And this is the retry.' },
      { match: 'very long', text: 'word '.repeat(300), chunkSize: 5, delayMs: 40 },
      // The first chunk ends just after the second item's marker, and the stream then waits: Stop lands there.
      { match: 'numbered steps', text: '1. First step\n2. Second step\n3. Third', chunkSize: 17, stallAfter: 1 },
      { match: 'slow start', text: 'Worth the wait.', firstByteDelayMs: 800 },
      { match: 'flag me', text: 'A reply the policy flagged.', flagged: true },
    ],
  });
});
afterAll(() => e2e?.close());

describe('failures, as a visitor sees them', () => {
  it('shows a calm notice for the message limit and keeps the unsent text', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'quota please, one more');
    // The service's owner-facing text goes to the console, not to the visitor (issue 9, item 5).
    await page.locator('askbox-widget #askbox-limit').waitFor();
    expect(await page.locator('askbox-widget').textContent()).not.toContain(QUOTA_MESSAGE);
    expect(await page.locator(W.input).inputValue()).toBe('quota please, one more');
    expect(await page.locator(W.user).count()).toBe(0);
  });

  it('marks a failed_responding reply and retries it without repeating the question', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'a flaky question');
    await page
      // One message for a failed reply: the service's apology (issue 9, item 12).
      .locator('askbox-widget .msg--failed', { hasText: "Sorry, I couldn't generate a response right now." })
      .waitFor();
    await page.locator('askbox-widget .msg--failed').getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot, { hasText: 'Second time lucky.' }).waitFor();
    expect(await page.locator(W.user).count()).toBe(1);
    expect(await page.locator('askbox-widget .msg--failed').count()).toBe(0);
  });

  it('recovers the stored reply when the stream is cut', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'cut please');
    await page.locator(W.bot, { hasText: 'This reply arrives whole after a cut.' }).waitFor();
    expect(await page.locator(W.alert).count()).toBe(0);
  });

  it('keeps the partial reply and offers exactly one Retry when a cut reply is lost', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'lost please');
    await page.locator(W.alert).waitFor();
    expect(await page.locator(W.alert).textContent()).toContain('The reply was interrupted.');
    expect(await page.locator('askbox-widget .msg--failed').textContent()).toContain('Only part');
    // One failure, one Retry: on the failed reply, not a second one in the notice.
    expect(await page.locator('askbox-widget').getByRole('button', { name: 'Retry' }).count()).toBe(1);
    await page.locator('askbox-widget .msg--failed').getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot, { hasText: 'And this is the retry.' }).waitFor();
    expect(await page.locator(W.alert).count()).toBe(0);
  });

  it('stops a long reply on request and keeps what arrived', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'a very long answer please');
    await page.locator(W.streaming).waitFor();
    await page.getByRole('button', { name: 'Stop generating' }).click();
    await page.locator(W.bot, { hasText: 'Stopped.' }).waitFor();
    const kept = (await page.locator(W.bot).last().textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(1000);
    expect(await page.getByRole('button', { name: 'Send message' }).count()).toBe(1);
  });

  it('stops mid-list without leaving an empty numbered item', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'numbered steps please');
    await page.locator(W.streaming, { hasText: 'First step' }).waitFor();
    await page.getByRole('button', { name: 'Stop generating' }).click();
    const stopped = page.locator(W.bot, { hasText: 'Stopped.' });
    await stopped.waitFor();
    expect(await stopped.locator('li').allTextContents()).toEqual(['First step']);
    // No block drawn empty: an item, a paragraph, a heading or a code block would show as a number or a gap.
    const empty = await stopped
      .locator('.md li, .md p, .md h1, .md h2, .md h3, .md pre, .md blockquote')
      .evaluateAll((blocks) => blocks.filter((block) => !block.textContent?.trim()).length);
    expect(empty).toBe(0);
  });

  it('shows the typing indicator while the first byte is slow', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'slow start');
    await page.locator('askbox-widget .typing').waitFor();
    await page.locator(W.bot, { hasText: 'Worth the wait.' }).waitFor();
    expect(await page.locator('askbox-widget .typing').count()).toBe(0);
  });

  it('marks a flagged reply', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'flag me');
    await page.locator(W.bot, { hasText: 'This reply was flagged by the content policy.' }).waitFor();
  });

  it('keeps working when the browser blocks storage (private mode, strict settings)', async () => {
    const { page, pageErrors } = await e2e.open('/');
    await page.addInitScript(() =>
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      }),
    );
    await page.reload();
    await ask(page, 'What are the delivery times?');
    await page.locator(`${W.bot} .sources`).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('keeps the text, pending, when the proxy is unreachable (online: not worded as the connection); Retry sends it', async () => {
    const { page } = await e2e.open('/');
    await page.route('**/askbox/**', (route) => route.abort('connectionrefused'));
    await ask(page, 'anyone there?');
    await page.locator(W.alert).waitFor();
    expect(await page.locator(W.alert).textContent()).toContain("This chat isn't available right now.");
    expect(await page.locator('askbox-widget .msg--pending').textContent()).toContain('anyone there?');
    await page.unroute('**/askbox/**');
    await page.locator(W.alert).getByRole('button', { name: 'Retry' }).click();
    await page.locator(W.bot).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['anyone there?']);
  });
});
