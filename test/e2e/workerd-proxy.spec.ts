import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDENTITY_SECRET, startDemoServer, type DemoServer } from '../../demo/server';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { CONTRACT_KEY, contractConfig } from '../contract/config';
import { startUpstream } from '../contract/upstream';
import { freshBuild } from '../helpers/build';
import { freePort } from '../helpers/ports';
import { startWorker } from '../helpers/workerd';
import { ask, launchChromium, retag, settle, W } from './harness';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let worker: Awaited<ReturnType<typeof startWorker>>;
let demo: DemoServer;
let browser: Browser;

/**
 * The widget in Chromium against the built Worker on the real Workers runtime (workerd, through miniflare), on
 * another origin: a signed-in person's conversations kept in its Durable Object and found from a second browser, and
 * the consent gate, before which the Worker hears nothing (issue 35, items 1 and 3).
 */
beforeAll(async () => {
  freshBuild('dist/askbox.js');
  upstream = await startUpstream(CONTRACT_KEY, { defaults: { delayMs: 10, chunkSize: 8 } });
  const demoPort = await freePort();
  const config = {
    ...contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin),
    allowedOrigins: [`http://localhost:${demoPort}`],
    identitySecret: DEMO_IDENTITY_SECRET,
  };
  worker = await startWorker(config);
  demo = await startDemoServer({ port: demoPort, proxyUrl: worker.url });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await worker?.close();
  await upstream?.close();
});

/** A fresh browser context (another device) on `path` of the demo, and the Worker's calls from it. */
async function visit(path: string) {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === new URL(worker.url).origin) calls.push(`${request.method()} ${url.pathname}`);
  });
  await page.goto(`${demo.url}${path}`);
  await page.locator(W.launcher).waitFor();
  return { page, calls };
}

/** The titles in the signed-in person's list, opened from the header's menu once the Worker has answered. */
async function listed(page: Page): Promise<string[]> {
  await page.locator('askbox-widget button[aria-haspopup="menu"]').click();
  await page.locator(`askbox-widget [role="menuitem"]:text-is("${CHAT_TEXT.conversations}")`).click();
  await page.locator('askbox-widget .convos[aria-busy="false"]').waitFor();
  return page.locator('askbox-widget .convos li button span').allTextContents();
}

describe('the widget against the Worker on workerd, in Chromium', () => {
  it('a signed-in person finds a conversation in a second browser; another person does not', async () => {
    const first = await visit('/signed-in.html?user=alice');
    await ask(first.page, 'How long does delivery take?');
    await expect.poll(() => first.page.locator(W.bot).count(), { timeout: 15_000 }).toBe(1);
    expect(await first.page.locator(W.bot).textContent()).toMatch(/deliver|ship/i);

    const second = await visit('/signed-in.html?user=alice');
    await second.page.locator(W.launcher).click();
    expect(await listed(second.page)).toEqual(['How long does delivery take?']);
    await second.page.keyboard.press('Enter');
    await expect.poll(() => second.page.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
    expect(second.calls).toContain('GET /askbox/conversations');

    const other = await visit('/signed-in.html?user=bob');
    await other.page.locator(W.launcher).click();
    expect(await listed(other.page)).toEqual([]);
    for (const { page } of [first, second, other]) await page.context().close();
  });

  it('with a consent text, sends the Worker nothing before Accept, then chats', async () => {
    const { page, calls } = await visit('/plain.html');
    await retag(page, { consent: 'I agree to the [privacy policy](https://example.com/privacy).' });
    await page.locator(W.launcher).waitFor();
    calls.length = 0;
    // Typed and sent before accepting: the gate holds it.
    await ask(page, 'How long does delivery take?');
    await page.locator('askbox-widget .consent__accept').waitFor();
    await settle(page);
    expect(calls).toEqual([]);
    await page.locator('askbox-widget .consent__accept').click();
    await page.locator(W.input).press('Enter');
    await expect.poll(() => page.locator(W.bot).count(), { timeout: 15_000 }).toBe(1);
    expect(calls).toContain('POST /askbox/conversations');
    await page.context().close();
  });
});
