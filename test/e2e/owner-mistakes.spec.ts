import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const UNAVAILABLE = "This chat isn't available right now.";

describe("the site owner's mistakes reach the owner, not the visitor", () => {
  it('a bot id the proxy does not serve: the visitor reads one calm sentence, the console names cause and fix', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    // The tag names a bot the proxy does not serve: its own 422 comes back.
    await page.route('**/askbox/conversations', (route) =>
      route.continue({
        postData: route
          .request()
          .postData()
          ?.replace(/"bot_id":"[^"]*"/, '"bot_id":"wrongBot0000"'),
      }),
    );
    await ask(page, 'Hello?');
    const alert = page.locator(W.alert);
    await alert.waitFor();
    expect(await alert.textContent()).toContain(UNAVAILABLE);
    expect(await alert.textContent()).not.toContain('bot id');
    const ours = consoleErrors.filter((line) => line.startsWith('[askbox]'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/does not serve bot \w+: add it to botIds, or fix data-bot-id/);
  });

  it('an unreachable proxy while the browser is online is not blamed on the connection', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    // What a missing CORS origin looks like from the page: a network error, the browser online.
    await page.route('**/askbox/**', (route) => route.abort('failed'));
    await ask(page, 'Hello?');
    const alert = page.locator(W.alert);
    await alert.waitFor();
    expect(await alert.textContent()).toContain(UNAVAILABLE);
    expect(await alert.textContent()).not.toMatch(/connection/i);
    expect(await page.locator(W.user).textContent()).not.toMatch(/connection/i);
    const ours = consoleErrors.filter((line) => line.startsWith('[askbox]'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/is unreachable.*allowedOrigins/);
  });
});
