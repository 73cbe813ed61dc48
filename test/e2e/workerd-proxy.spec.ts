import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEMO_IDENTITY_SECRET, startDemoServer, type DemoServer } from '../../demo/server';
import { CONTRACT_KEY, contractConfig } from '../contract/config';
import { startUpstream } from '../contract/upstream';
import { freshBuild } from '../helpers/build';
import { freePort } from '../helpers/ports';
import { startWorker } from '../helpers/workerd';
import { launchChromium } from './harness';
import { visitWithProxy, walkConsent, walkSignedIn } from './proxy-walks';

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

/** The demo's `path` in a fresh browser context, recording the Worker's calls. */
const visit = (path: string) => visitWithProxy(browser, `${demo.url}${path}`, new URL(worker.url).origin);

describe('the widget against the Worker on workerd, in Chromium', () => {
  it('a signed-in person finds a conversation in a second browser; another person does not', () => walkSignedIn(visit));

  it('with a consent text, sends the Worker nothing before Accept, then chats', async () => {
    await walkConsent(await visit('/plain.html'));
  });
});
