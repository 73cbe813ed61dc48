import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'think', text: 'Thought it through.', firstByteDelayMs: 1500 }] });
});
afterAll(() => e2e?.close());

const PENDING = 'askbox-widget .msg--pending';

describe('a sent message looks sent', () => {
  for (const page of ['/', '/whole.html'])
    it(`draws a message the proxy took as sent while the reply is awaited (${page})`, async () => {
      const { page: tab } = await e2e.open(page);
      await ask(tab, 'Think about it');
      await tab.locator('askbox-widget .typing').waitFor();
      expect(await tab.locator(PENDING).count()).toBe(0);
      expect(await tab.locator(W.user).textContent()).not.toContain('Waiting for connection');
      await tab.locator(W.bot, { hasText: 'Thought it through.' }).waitFor();
    });

  it('draws a message waiting for the connection as pending, and says so in words', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    await page.context().setOffline(true);
    await ask(page, 'Think it over');
    await page.locator(PENDING, { hasText: 'Waiting for connection…' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.context().setOffline(false);
    await page.locator(W.bot, { hasText: 'Thought it through.' }).waitFor();
    expect(await page.locator(PENDING).count()).toBe(0);
    expect(await page.locator(W.user).textContent()).not.toContain('Waiting for connection');
  });
});

describe('starters while sending is held', () => {
  it.each([
    [402, {}],
    [429, { 'retry-after': '30' }],
  ])('are disabled after a %i, with the same reason as Send', async (status, headers) => {
    const { page } = await e2e.open('/');
    await page.route('**/askbox/messages/stream', (route) =>
      route.fulfill({
        status,
        headers,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Message limit reached.' }),
      }),
    );
    await page.locator(W.launcher).click();
    const starter = page.locator('askbox-widget .starter', { hasText: 'How do returns work?' });
    await starter.click();
    await page.locator('askbox-widget #askbox-limit').waitFor();
    await starter.waitFor();
    const send = page.locator(W.panel).getByRole('button', { name: 'Send message' });
    const [describedBy, disabled] = await Promise.all([starter.getAttribute('aria-describedby'), starter.isDisabled()]);
    expect({ describedBy, disabled }).toEqual({
      describedBy: await send.getAttribute('aria-describedby'),
      disabled: true,
    });
    expect(describedBy).toBe('askbox-limit');
  });
});
