import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDENTITY_SECRET, startDemoServer, type DemoServer } from '../../demo/server';
import { CONTRACT_KEY, contractConfig } from '../contract/config';
import { startUpstream } from '../contract/upstream';
import { freshBuild } from '../helpers/build';
import { startPhpProxy } from '../helpers/php';
import { freePort } from '../helpers/ports';
import { ask, launchChromium, W } from './harness';
import { visitWithProxy, walkConsent, walkSignedIn } from './proxy-walks';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let php: Awaited<ReturnType<typeof startPhpProxy>>;
let demo: DemoServer;
let browser: Browser;

/**
 * The widget in Chromium against the PHP proxy (`php -S`) on another origin, as a WordPress or shared host would
 * run it: preflighted CORS, the 302 to the sealed stream, grants, limits.
 */
beforeAll(async () => {
  freshBuild('dist/askbox.js');
  upstream = await startUpstream(CONTRACT_KEY, { defaults: { delayMs: 20, chunkSize: 6 } });
  const port = await freePort();
  demo = await startDemoServer({ port: 0, proxyUrl: `http://127.0.0.1:${port}/askbox` });
  const config = {
    ...contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin),
    allowedOrigins: [new URL(demo.url).origin],
    identitySecret: DEMO_IDENTITY_SECRET,
  };
  php = await startPhpProxy(
    { ...config, limits: { ...config.limits, visitorMessages: { burst: 10, perMinute: 10 } } },
    port,
  );
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await php?.close();
  await upstream?.close();
});

/** The demo's `path` in a fresh browser context, recording the PHP proxy's calls. */
const visit = (path: string) => visitWithProxy(browser, `${demo.url}${path}`, new URL(php.url).origin);

describe('the widget against the PHP proxy, in Chromium', () => {
  it('asks, streams the reply in, and restores the history after a reload', async () => {
    const { page, calls, pageErrors } = await visit('/plain.html');
    // A stream's sealed token differs each time.
    const phpCalls = () => calls.map((call) => call.replace(/stream\/.*/, 'stream/:token'));
    await ask(page, 'How long does delivery take?');
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const text = (await page.locator(W.streaming).allTextContents()).join('');
          if (text) seen.add(text);
          return page.locator(W.bot).count();
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(1);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    const answer = (await page.locator(W.bot).textContent()) ?? '';
    expect(answer).toMatch(/deliver|ship/i);
    expect(phpCalls()).toEqual(
      expect.arrayContaining([
        'POST /askbox/conversations',
        'POST /askbox/messages/stream',
        'GET /askbox/stream/:token',
      ]),
    );

    await page.reload();
    // Left open, the panel reopens by itself: the open state is remembered for the session.
    await page.locator(W.panel).waitFor();
    await expect.poll(() => page.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(W.bot).textContent()).toBe(answer);
    expect(await page.locator(W.user).textContent()).toContain('How long does delivery take?');
    expect(phpCalls()).toContain('GET /askbox/messages');
    expect(pageErrors).toEqual([]);
  });

  it('with a consent text, sends the PHP proxy nothing before Accept, then chats', async () => {
    await walkConsent(await visit('/plain.html'));
  });

  it('a signed-in person finds a conversation in a second browser; another person does not', () => walkSignedIn(visit));
});
