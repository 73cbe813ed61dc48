import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/proxy/core/options';
import { axeViolations } from './axe';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'ship', text: 'We ship to 40 countries.' },
      { match: 'broken', status: 500, text: 'Sorry, that went wrong.', failedResponding: true, once: true },
      { match: 'broken', text: 'Fixed on the second try.' },
      { match: 'think', text: 'Thought it through.', firstByteDelayMs: 1500 },
      { match: 'stall', text: 'Once upon a time, in a land far away, they lived happily ever after.', stallAfter: 1 },
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

  it('shows the typing indicator until the whole reply is there, and no half-written one', async () => {
    const { page } = await e2e.open('/whole.html');
    await page.locator(W.input).fill('Think it over');
    await page.locator(W.input).press('Enter');
    await page.locator('askbox-widget .typing').waitFor();
    expect(await page.locator(W.streaming).count()).toBe(0);
    await page.locator(W.bot, { hasText: 'Thought it through.' }).waitFor();
    expect(await page.locator('askbox-widget .typing').count()).toBe(0);
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

describe('a 429 from the proxy', () => {
  let limited: Awaited<ReturnType<typeof startE2E>>;
  beforeAll(async () => {
    // One message at once per visitor, then one every 3 s: the second message in a row meets a 429.
    limited = await startE2E(
      { replies: [{ text: 'Answered.' }] },
      { limits: { ...DEFAULT_LIMITS, visitorMessages: { burst: 1, perMinute: 20 } } },
    );
  });
  afterAll(() => limited?.close());

  it('counts Retry-After down with sending disabled, then lets the visitor send, the draft intact', async () => {
    const { page, consoleErrors } = await limited.open('/plain.html');
    await ask(page, 'first');
    await page.locator(W.bot, { hasText: 'Answered.' }).waitFor();
    await page.locator(W.input).fill('second, too soon');
    await page.locator(W.input).press('Enter');
    // Announced politely (a status, not an alert), once; the count is for the eye.
    const notice = page.locator('askbox-widget #askbox-limit[role="status"]');
    await notice.waitFor();
    expect(await notice.locator('[aria-hidden="true"]').textContent()).toMatch(/Please wait [1-3] seconds?/);
    const send = page.locator(W.panel).getByRole('button', { name: 'Send message' });
    expect(await send.isDisabled()).toBe(true);
    expect(await send.getAttribute('aria-describedby')).toBe('askbox-limit');
    expect(await page.locator(W.input).inputValue()).toBe('second, too soon');
    expect(await axeViolations(page)).toEqual([]);
    await notice.waitFor({ state: 'detached', timeout: 5000 });
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await expect.poll(() => page.locator(W.bot).count()).toBe(2);
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['first', 'second, too soon']);
    expect(consoleErrors.filter((e) => !e.includes('429'))).toEqual([]);
  });
});

describe("a 429 from the proxy's new-conversation limit", () => {
  let limited: Awaited<ReturnType<typeof startE2E>>;
  beforeAll(async () => {
    // One new conversation per visitor, then one every 30 s: the second in a row meets a 429.
    limited = await startE2E(
      { replies: [{ text: 'Answered.' }] },
      { limits: { ...DEFAULT_LIMITS, visitorConversations: { burst: 1, perMinute: 2 } } },
    );
  });
  afterAll(() => limited?.close());

  it('tells the visitor they start new conversations too quickly, not that they send messages too quickly', async () => {
    const { page } = await limited.open('/plain.html');
    await ask(page, 'first');
    await page.locator(W.bot, { hasText: 'Answered.' }).waitFor();
    await page.locator(W.panel).getByRole('button', { name: 'Start a new conversation' }).click();
    await page.locator(W.input).fill('a new topic');
    await page.locator(W.input).press('Enter');
    const notice = page.locator('askbox-widget #askbox-limit[role="status"]');
    await notice.waitFor();
    const said = await notice.locator('.sr-only').textContent();
    expect(said).toMatch(/^You are starting new conversations too quickly\. Please wait \d+ seconds and try again\.$/);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('offline', () => {
  it('shows it at once; a message sent meanwhile waits as a pending bubble and goes once the connection returns', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    await page.context().setOffline(true);
    await page.locator(W.panel).getByRole('status').filter({ hasText: 'Could not reach' }).waitFor();
    await page.locator(W.input).fill('What do you ship?');
    await page.locator(W.input).press('Enter');
    await page.locator(W.alert).waitFor();
    await page.locator('askbox-widget .msg--pending', { hasText: 'What do you ship?' }).waitFor();
    // The draft is free to type in, but sending waits for the message that is already waiting.
    await page.locator(W.input).fill('And returns?');
    const send = page.locator(W.panel).getByRole('button', { name: 'Send message' });
    expect(await send.isDisabled()).toBe(true);
    expect(await page.locator(W.panel).getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().setOffline(false);
    await page.locator(W.bot, { hasText: 'We ship to 40 countries' }).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['What do you ship?']);
    expect(await page.locator('askbox-widget .msg--pending').count()).toBe(0);
    // Nothing was tried while offline: the message went once, when the connection returned.
    expect(requests.filter((r) => r.startsWith('POST /askbox/'))).toEqual([
      'POST /askbox/conversations',
      'POST /askbox/messages/stream',
    ]);
    expect(await page.locator(W.input).inputValue()).toBe('And returns?');
    expect(await send.isDisabled()).toBe(false);
    expect(consoleErrors).toEqual([]);
  });

  it('reads back a message the service got before the connection went, instead of sending it twice', async () => {
    const { page, requests } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    // The request reaches the proxy and the service stores the question; the answer never comes back.
    await page.route('**/askbox/messages/stream', async (route) => {
      await route.fetch({ maxRedirects: 0 });
      await page.context().setOffline(true);
      await route.abort('internetdisconnected');
    });
    await page.locator(W.input).fill('What do you ship?');
    await page.locator(W.input).press('Enter');
    await page.locator(W.alert).waitFor();
    await page.locator('askbox-widget .msg--pending').waitFor();
    await page.unroute('**/askbox/messages/stream');
    await page.context().setOffline(false);
    // The stored question is shown once, with the reply it never got marked failed and one Retry.
    await page.locator('askbox-widget .msg--failed').waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['What do you ship?']);
    expect(requests.filter((r) => r === 'POST /askbox/messages/stream')).toHaveLength(1);
    expect(await page.locator(W.input).inputValue()).toBe('');
  });

  it('reads back, once the connection returns, the whole of a reply it cut off', async () => {
    const { page, requests } = await e2e.open('/plain.html');
    await ask(page, 'A stall, please');
    await page.locator(W.streaming, { hasText: 'Once' }).waitFor();
    // The connection goes mid-reply (offline emulation alone leaves a response under way alone); the service
    // finishes the reply and stores it all the same.
    await page.context().setOffline(true);
    e2e.dropConnections();
    await page.locator('askbox-widget .msg--failed', { hasText: 'Once' }).waitFor();
    await page.context().setOffline(false);
    await page.locator(W.bot, { hasText: 'happily ever after.' }).waitFor();
    expect(await page.locator('askbox-widget .msg--failed').count()).toBe(0);
    expect(requests.filter((r) => r === 'POST /askbox/messages/stream')).toHaveLength(1);
  });
});
