import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let limited: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 5 },
    replies: [{ match: 'secret order', text: 'Your order 4711 ships to Rue de la Paix 1.' }],
  });
  limited = await startE2E({ defaults: { delayMs: 0 } }, { limits: { visitorMessages: { burst: 1, perMinute: 1 } } });
});
afterAll(async () => {
  await e2e?.close();
  await limited?.close();
});

/** The widget's stored conversation: its storage key and value. */
async function storedConversation(page: Page): Promise<{ key: string; value: string }> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.includes('conversation:')) ?? '';
    return { key, value: localStorage.getItem(key) ?? '' };
  });
}

/** The grant header each list request carried. */
function grantsSent(page: Page): string[] {
  const grants: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/askbox/messages' && request.method() === 'GET')
      grants.push(request.headers()['x-askbox-grant'] ?? '');
  });
  return grants;
}

describe('visitor isolation through the proxy, in Chromium', () => {
  it('restores history after a reload with the stored grant', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    await ask(page, 'What about my secret order?');
    await expect.poll(() => page.locator(W.bot).count()).toBe(1);
    const { value } = await storedConversation(page);
    const stored = JSON.parse(value) as { id: string; grant: string };
    expect(stored).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
      grant: expect.stringMatching(new RegExp(`^g1\\.${stored.id}\\.`)),
    });
    const grants = grantsSent(page);
    await page.reload();
    // Left open, the panel reopens by itself: the open state is remembered for the session.
    await page.locator(W.panel).waitFor();
    await expect.poll(() => page.locator(W.bot).count()).toBe(1);
    await expect.poll(() => page.locator(W.bot).textContent()).toContain('Rue de la Paix');
    expect(grants.length).toBeGreaterThan(0);
    expect(new Set(grants)).toEqual(new Set([stored.grant]));
    expect(consoleErrors).toEqual([]);
  });

  it("shows a second visitor nothing of the first one's conversation, whatever they put in storage", async () => {
    const first = await e2e.open('/');
    await ask(first.page, 'About my secret order');
    await expect.poll(() => first.page.locator(W.bot).count()).toBe(1);
    const { key, value } = await storedConversation(first.page);
    const victim = JSON.parse(value) as { id: string; grant: string };
    const [head, , , , , signature] = victim.grant.split('.');
    const otherVisitor = [
      head,
      victim.id,
      victim.grant.split('.')[2],
      'attackerVisitor0000000',
      victim.grant.split('.')[4],
      signature,
    ].join('.');

    const second = await e2e.open('/');
    const refusals: number[] = [];
    second.page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/askbox/messages') refusals.push(response.status());
    });
    const attempts = [
      victim.id,
      JSON.stringify({ id: victim.id, grant: 'g1.forged' }),
      JSON.stringify({ id: victim.id, grant: otherVisitor }),
    ];
    for (const planted of attempts) {
      await second.page.evaluate(([k, v]) => localStorage.setItem(k!, v!), [key, planted]);
      await second.page.reload();
      await second.page.locator(W.launcher).click();
      await expect.poll(() => second.page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
      expect(await second.page.locator(W.bot).count()).toBe(0);
      expect(await second.page.locator(W.alert).count()).toBe(0);
    }
    // The bare id of an older widget is dropped without a request; the forged grants are refused by the proxy.
    expect(refusals).toEqual([404, 404]);
    await ask(second.page, 'Hello, is anyone there?');
    await expect.poll(() => second.page.locator(W.bot).count()).toBe(1);
    expect(await second.page.locator('askbox-widget .panel').textContent()).not.toContain('Rue de la Paix');
    const mine = JSON.parse((await storedConversation(second.page)).value) as { id: string };
    expect(mine.id).not.toBe(victim.id);
    expect(second.pageErrors).toEqual([]);
  });

  it('tells the visitor how long to wait when the proxy limits them, and keeps their text', async () => {
    const { page } = await limited.open('/');
    await ask(page, 'First question');
    await expect.poll(() => page.locator(W.bot).count()).toBe(1);
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    await ask(page, 'A second question right away');
    // The sentence a screen reader hears (a polite status; the count on screen ticks down).
    const heard = page.locator('askbox-widget [role="status"].notice--rate_limit .sr-only');
    await expect.poll(() => heard.textContent()).toMatch(/Please wait (\d+) seconds and try again\./);
    const seconds = Number(/wait (\d+) seconds/.exec((await heard.textContent()) ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await page.locator(W.input).inputValue()).toBe('A second question right away');
    expect(await page.locator(W.user).count()).toBe(1);
  });
});
