import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock, readmeSection } from '../helpers/readme';
import {
  loggedRatings,
  startNextRecipe,
  startNodeRecipe,
  phpTrial,
  startPhpRecipe,
  startWorkerRecipe,
  type RunningRecipe,
} from '../helpers/recipes';
import { startSandbox } from '../helpers/sandbox';
import { createScratchProject, type ScratchProject } from '../helpers/scratch-project';
import {
  startWalkthroughSite,
  walkthroughPorts,
  walkthroughVariables,
  type WalkthroughSite,
} from '../helpers/walkthrough';
import { startWordPressRecipe } from '../helpers/wordpress-recipe';
import { freePort } from '../helpers/ports';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { ask, clickInLog, launchChromium, W } from './harness';

/**
 * Every install step and proxy recipe of the README, run as written: the package packed and installed into a fresh
 * project, each recipe's block saved as a file and started with only the README's variables set, against
 * `npm run simulator`; then the walkthrough's page (its step 5 run as written: the installed package's files copied
 * next to an index.html, served by the README's `serve.mjs`), copied with each recipe's address in its tag, chats
 * through it from another origin in Chromium; and WordPress, given the README's must-use plugin, chats through the
 * simulator too. Editing a recipe or a walkthrough step so that it stops working fails here.
 */

const RECIPES = [
  'Node (plain `node:http`)',
  'Express or Connect',
  'Fastify',
  'Next.js (app router)',
  'Cloudflare Workers',
  'PHP (shared hosting)',
  'Watching the proxy',
] as const;

let project: ScratchProject;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let site: WalkthroughSite;
let siteOrigin = '';
let browser: Browser;
let metricsPort = 0;
/** What each visitor writes under their thumbs-down. */
const COMMENT = 'Not what I asked';
/** The longest one step of a recipe's walk may wait (the reply has 20 s). */
const STEP_TIMEOUT = 10_000;
/** A recipe's whole walk: its steps' own limits, with room for the page and the clicks. */
const WALK_TIMEOUT = 60_000;
/** The Node recipes, which print where they listen. */
const NODE_RECIPES = [RECIPES[0], RECIPES[1], RECIPES[2], RECIPES[6]];
const running = new Map<string, RunningRecipe>();
/** The port a running server's URL names. */
const portOf = (url: string) => Number(new URL(url).port);

/** The README's install line for your site's project, as arguments to npm with the tarball's path in place. */
function installCommand(tarball: string): string[] {
  const line = readmeBlock('Get the package', 'sh')
    .split('\n')
    .find((command) => command.startsWith('npm i '));
  const written = /^npm i (\S+)/.exec(line ?? '')?.[1];
  if (!written) throw new Error('README.md "Get the package" lost its `npm i <tarball>` line');
  // The README names the tarball `npm pack` writes for this version; only its folder is a placeholder.
  expect(written.split('/').pop()).toBe(tarball.split('/').pop());
  return ['i', tarball];
}

beforeAll(async () => {
  [project, sandbox] = await Promise.all([
    Promise.resolve().then(() => createScratchProject(installCommand)),
    startSandbox(),
  ]);
  site = await startWalkthroughSite(project.dir);
  siteOrigin = site.origin;
  const env = {
    CODY_API_KEY: sandbox.apiKey,
    CODY_API_URL: sandbox.apiUrl,
    CODY_BOT_ID: sandbox.botId,
    ASKBOX_SECRET: randomBytes(32).toString('hex'),
    ASKBOX_ALLOWED_ORIGINS: siteOrigin,
  };
  const { ASKBOX_SECRET: _kept, ...withoutSecret } = env;
  // Each is kept as it comes up, and all are waited for, so that afterAll stops every one even when one fails.
  const keep = (name: string) => (recipe: RunningRecipe) => void running.set(name, recipe);
  const started = await Promise.allSettled([
    // No ASKBOX_SECRET: the proxy warns once that conversations will not survive a restart.
    startNodeRecipe(RECIPES[0], 'proxy.mjs', project.dir, withoutSecret).then(keep(RECIPES[0])),
    startNodeRecipe(RECIPES[1], 'express.mjs', project.dir, env).then(keep(RECIPES[1])),
    startNodeRecipe(RECIPES[2], 'fastify.mjs', project.dir, env).then(keep(RECIPES[2])),
    startNextRecipe(project.tarball, project.dir, env).then(keep(RECIPES[3])),
    // As `.dev.vars` over the toml's [vars]: the secrets and what differs on this machine.
    startWorkerRecipe(project.dir, { ...env, ASKBOX_BOT_IDS: sandbox.botId }).then(keep(RECIPES[4])),
    // Its variables are the README's own, on its command line (no ASKBOX_SECRET: the PHP proxy keeps one of its own
    // in its store folder); only the ports differ.
    startPhpRecipe(project.dir, { simulator: portOf(sandbox.apiUrl), page: portOf(siteOrigin) }).then(keep(RECIPES[5])),
    freePort()
      .then((port) => {
        metricsPort = port;
        return startNodeRecipe(RECIPES[6], 'metrics.mjs', project.dir, { ...env, METRICS_PORT: String(port) });
      })
      .then(keep(RECIPES[6])),
  ]);
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  browser = await launchChromium();
}, 180_000);

// Removing the scratch project (Next.js's node_modules among it) alone takes 15 s on a busy 2-core machine.
afterAll(async () => {
  await browser?.close();
  await Promise.all([...running.values()].map((recipe) => recipe.close()));
  await sandbox?.stop();
  await site?.close();
  if (project) rmSync(dirname(project.dir), { recursive: true, force: true });
}, 60_000);

describe("the README's install and proxy recipes, run as written", () => {
  it('installs from the packed tarball, says the npm release is to come, and says what the tests cannot run', () => {
    expect(readmeBlock('Get the package', 'sh')).toMatch(/^npm ci && npm run build && npm pack\b/m);
    const section = readmeSection('Get the package');
    expect(section).toContain('Askbox is not on npm yet');
    expect(section).toContain('`npm i askbox` will do');
    expect(readmeSection('Deno and Bun')).toContain('the tests cannot run these two');
    expect(readmeSection('Next.js (app router)')).toContain('The test runs this very file in Next.js 16 (`next dev`)');
  });

  it("walks through as the README says: step 4 passes what `npm run simulator` prints, step 5's site is the page", () => {
    const { CODY_API_URL: url = '', ...values } = walkthroughVariables();
    // The printed values, on the simulator's default port (this one runs on a free port).
    expect(values).toEqual({
      CODY_API_KEY: sandbox.apiKey,
      CODY_BOT_ID: sandbox.botId,
      ASKBOX_ALLOWED_ORIGINS: 'http://localhost:8000',
    });
    expect(url.replace(':8788', '')).toBe(sandbox.apiUrl.replace(/:\d+/, ''));
  });

  it("gives the walkthrough's simulator, proxy and page and the PHP recipe's php -S a port each", () => {
    const ports = walkthroughPorts();
    const all = [ports.simulator, ports.proxy, ports.page, phpTrial().port];
    expect(
      all.every((each) => Number.isInteger(each) && each > 0),
      String(all),
    ).toBe(true);
    expect(new Set(all).size, String(all)).toBe(all.length);
    // The Node recipe listens where step 5's tag looks for it.
    expect(readmeBlock(RECIPES[0], 'js')).toContain(`process.env.PORT ?? ${ports.proxy}`);
    // The PHP recipe is tried with the walkthrough's simulator and page.
    expect(phpTrial().variables).toEqual(walkthroughVariables());
  });

  it("serves step 5's page with Node as written; on a phone its viewport line makes it the screen's width", async () => {
    expect(site.output.join('')).toContain(`Your page: ${siteOrigin}`);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(siteOrigin);
    // Without the viewport line a phone lays the page out 980 pixels wide and shows it shrunk.
    expect(await page.evaluate(() => window.innerWidth)).toBe(390);
    const launcher = await page.locator(W.launcher).boundingBox();
    expect(launcher).not.toBeNull();
    const { x = -1, y = -1, width = 0, height = 0 } = launcher ?? {};
    expect([x >= 0, y >= 0, x + width <= 390, y + height <= 844], JSON.stringify(launcher)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    await context.close();
  });

  it('runs the Next.js route file in Next.js itself, not in a stand-in', () => {
    const output = running.get(RECIPES[3])?.output.join('') ?? '';
    expect(output).toMatch(/Next\.js 16\.\d+\.\d+/);
  });

  // The pages chat at once (one browser, a context each): the proxies are separate processes. Five walks share the
  // machine, so each has the time its own steps allow (20 s for the reply, 10 s for each other wait) rather than the
  // default 30 s, and a step that hangs fails by itself, named, instead of the whole walk timing out.
  it.concurrent.for(RECIPES)(
    '%s: a page on another origin chats through it in Chromium',
    { timeout: WALK_TIMEOUT },
    async (name, test) => {
      const recipe = running.get(name) as RunningRecipe;
      const context = await browser.newContext({ viewport: { width: 1000, height: 760 } });
      context.setDefaultTimeout(STEP_TIMEOUT);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // The walkthrough's page has no favicon: the browser's 404 for it is no error of the widget's.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text());
      });
      const proxied: string[] = [];
      page.on('request', (request) => {
        if (request.url().startsWith(recipe.proxyUrl))
          proxied.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      await page.goto(site.pageFor(name, { botId: sandbox.botId, proxyUrl: recipe.proxyUrl }));
      await ask(page, 'What do the plans cost?');
      // A reply, or the notice a refusing proxy leads to ("This chat isn't available right now."): no long wait.
      await page.locator(`${W.bot}, ${W.alert}`).first().waitFor({ timeout: 20_000 });
      expect(await page.locator(W.alert).allTextContents(), recipe.output.join('')).toEqual([]);
      expect(await page.locator(W.bot).first().textContent()).toMatch(/plan/i);
      expect(proxied).toEqual(expect.arrayContaining([expect.stringMatching(/^POST .*\/conversations$/)]));
      // A thumbs-down with a comment, as a visitor gives it: the widget sends the rating once, with the comment.
      const rated: number[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(recipe.proxyUrl) && response.url().includes('feedback'))
          rated.push(response.status());
      });
      const thumbsDown = page.locator(`${W.bot} button[aria-label="${CHAT_TEXT.rateDown}"]`);
      await clickInLog(page, thumbsDown, test.expect);
      // The click was taken (a lost one fails here, not as a comment box that never opens). expect.poll needs the
      // test's own expect in a concurrent test.
      await test.expect.poll(() => thumbsDown.getAttribute('aria-pressed'), { timeout: STEP_TIMEOUT }).toBe('true');
      await page.getByLabel(CHAT_TEXT.comment).fill(COMMENT);
      await page.locator('askbox-widget .comment button[type="submit"]').click();
      await test.expect.poll(() => rated, { timeout: STEP_TIMEOUT }).toEqual([200]);
      expect(errors, recipe.output.join('')).toEqual([]);
      await context.close();
      // Found where the README says ratings go: one rating (one visitor, one reply) is one line, with the comment.
      await test.expect.poll(() => loggedRatings(recipe.output).length, { timeout: STEP_TIMEOUT }).toBe(1);
      const ratings = loggedRatings(recipe.output);
      expect(ratings).toEqual([
        expect.objectContaining({
          conversationId: expect.any(String),
          messageId: expect.any(String),
          visitorId: expect.any(String),
          rating: 'down',
          comment: COMMENT,
        }),
      ]);
      // Every method the widget uses reaches the proxy: a deletion without a grant is its 404, not the framework's.
      const deleted = await fetch(`${recipe.proxyUrl}/conversations/abcdefabcdef`, {
        method: 'DELETE',
        headers: { origin: siteOrigin },
        signal: AbortSignal.timeout(STEP_TIMEOUT),
      });
      expect(deleted.status, recipe.output.join('')).toBe(404);
      expect(await deleted.json()).toEqual({ message: 'Conversation not found.' });
    },
  );

  it("WordPress, with the README's must-use plugin, chats through the simulator on its home page", async () => {
    const wordpress = await startWordPressRecipe(browser, sandbox);
    try {
      const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
      const proxied: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('askbox/v1/')) proxied.push(request.method());
      });
      await page.goto(wordpress.url);
      await ask(page, 'What do the plans cost?');
      await page.locator(`${W.bot}, ${W.alert}`).first().waitFor({ timeout: 20_000 });
      expect(await page.locator(W.alert).allTextContents(), wordpress.logTail()).toEqual([]);
      expect(await page.locator(W.bot).first().textContent()).toMatch(/plan/i);
      expect(proxied).toContain('POST');
      await page.context().close();
      expect(wordpress.errors()).toEqual([]);
    } finally {
      await wordpress.close();
    }
  }, 240_000);

  it.each(NODE_RECIPES)('%s: prints one line naming where it listens', (name) => {
    const recipe = running.get(name) as RunningRecipe;
    const output = recipe.output.join('');
    const listening = output.match(/^Askbox proxy listening on .*$/gm) ?? [];
    expect(listening, output).toEqual([
      `Askbox proxy listening on http://localhost:${new URL(recipe.proxyUrl).port}/askbox`,
    ]);
  });

  it('warns once when no secret is set, and only then', () => {
    const warnings = (name: string) =>
      running
        .get(name)
        ?.output.join('')
        .match(/No secret set/g) ?? [];
    expect(warnings(RECIPES[0])).toHaveLength(1);
    for (const name of NODE_RECIPES.slice(1)) expect(warnings(name), name).toHaveLength(0);
    // The PHP proxy makes a secret and keeps it: it says so once, when it makes it.
    const made = running
      .get(RECIPES[5])
      ?.output.join('')
      .match(/No secret is given \(ASKBOX_SECRET\): made one/g);
    expect(made).toHaveLength(1);
  });

  it('counts those chats in the Prometheus scrape of the metrics recipe', async () => {
    const scrape = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const created = new RegExp(
      `^askbox_proxy_requests_total\\{[^}]*http_route="/askbox/conversations"[^}]*http_response_status_code="200"[^}]*\\} (\\d+)`,
      'm',
    ).exec(scrape);
    expect(Number(created?.[1]), scrape).toBeGreaterThanOrEqual(1);
    expect(scrape).toMatch(/^askbox_proxy_stream_duration_count\{[^}]*\} [1-9]/m);
    expect(scrape).toMatch(/^askbox_proxy_streams_open\{[^}]*\} 0$/m);
  });
});
