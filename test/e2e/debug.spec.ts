import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { deepActive, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const OVERLAY = 'askbox-widget [role="dialog"][aria-labelledby="askbox-debug-title"]';

/** The overlay's lines, as "OK: …", "Warning: …", "Problem: …". */
async function report(page: Page): Promise<string[]> {
  await page.locator(OVERLAY).waitFor();
  return page.locator(`${OVERLAY} li`).allTextContents();
}

describe('the self-diagnosis overlay', () => {
  it('is not fetched without ?askbox-debug=1 or data-debug', async () => {
    const { page, requests } = await e2e.open('/plain.html');
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    await settle(page);
    expect(requests.filter((r) => r.includes('askbox-debug'))).toEqual([]);
    expect(await page.locator(OVERLAY).count()).toBe(0);
  });

  it('passes every check on a page set up right, is axe-clean, and closes with Escape', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/plain.html?askbox-debug=1');
    const lines = await report(page);
    expect(lines.filter((line) => !line.startsWith('OK: '))).toEqual([]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^OK: Askbox \d+\.\d+\.\d+\.$/),
        'OK: The proxy at /askbox answers as an Askbox proxy.',
        'OK: The proxy serves bot askboxDemo01.',
        'OK: No Content-Security-Policy violation seen.',
        'OK: localStorage and sessionStorage work.',
      ]),
    );
    expect(requests).toContain('GET /askbox/health');
    expect(await deepActive(page)).toBe('button');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator(OVERLAY).waitFor({ state: 'detached' });
    expect(consoleErrors).toEqual([]);
  });

  it('names a bot the proxy does not serve, a tag added twice, and a cookie bar over the launcher', async () => {
    const { page } = await e2e.open('/debug.html');
    const lines = await report(page);
    expect(lines).toEqual(
      expect.arrayContaining([
        "Problem: The proxy does not serve bot otherBot0002: add it to the proxy's botIds, or fix data-bot-id.",
        expect.stringMatching(/^Warning: The script is added twice for bot askboxDemo01 with different settings/),
        expect.stringMatching(
          /^Warning: Fixed elements overlap the launcher's corner: div#cookie-consent\.cookie-bar\./,
        ),
      ]),
    );
  });

  it('says a proxy on another origin that does not list this site cannot be reached, and why that may be', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    // The same page from 127.0.0.1, with the proxy at localhost: another origin, which the demo proxy does not list.
    await page.goto(`${e2e.url.replace('localhost', '127.0.0.1')}/plain.html`);
    await page.locator(W.launcher).waitFor();
    await page.evaluate(`(() => {
      window.Askbox.destroy();
      const script = document.createElement('script');
      script.src = '/askbox.js?again';
      Object.assign(script.dataset, { botId: 'askboxDemo01', proxyUrl: '${e2e.url}/askbox', debug: '' });
      document.body.append(script);
    })()`);
    expect(await report(page)).toContainEqual(
      expect.stringMatching(
        /^Problem: The proxy at http:\/\/localhost:\d+\/askbox did not answer \(.+\)\. It is down, the URL is wrong, or it refuses this site: a proxy on another origin must list http:\/\/127\.0\.0\.1:\d+ in allowedOrigins\.$/,
      ),
    );
  });

  it('reports the CSP violations it sees on a strict-CSP page', async () => {
    const { page } = await e2e.open('/csp.html?askbox-debug=1');
    await report(page);
    await page.evaluate(`(() => {
      const image = document.createElement('img');
      image.src = 'https://blocked.example/pixel.png';
      document.body.append(image);
    })()`);
    await expect
      .poll(() => report(page))
      .toContainEqual(
        expect.stringMatching(/^Problem: Content-Security-Policy blocked: img-src https:\/\/blocked\.example/),
      );
  });
});
