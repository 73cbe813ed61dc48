import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'returns', text: 'Returns are free for 30 days.' }] });
});
afterAll(() => e2e?.close());

describe('calls made before the script loads (the loader snippet)', () => {
  it('replays them in order once the widget runs: queued listeners hear later events', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/queue.html');
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    expect(await page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['How do returns work?']);
    expect(await page.locator('askbox-widget .askbox--dark').count()).toBe(1);
    await expect.poll(() => page.evaluate('window.seen')).toEqual(['open', 'reply: Returns are free for 30 days.']);
    // The stand-in is gone: the global is the widget's own.
    expect(await page.evaluate('typeof window.Askbox.version')).toBe('string');
    expect(await page.evaluate("'q' in window.Askbox")).toBe(false);
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });

  it('names a queued call it does not know, once, and runs the others', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.evaluate(`(() => {
      const api = window.Askbox;
      delete window.Askbox;
      window.Askbox = { q: [['explode', []], ['open', []]] };
      const script = document.createElement('script');
      script.src = '/askbox.js?again';
      for (const [key, value] of Object.entries(document.querySelector('script[src="/askbox.js"]').dataset))
        script.dataset[key] = value;
      api.destroy();
      document.body.append(script);
    })()`);
    await page.locator(W.panel).waitFor();
    expect(consoleErrors).toEqual([expect.stringContaining('[askbox] A queued call is not one of')]);
  });
});
