import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { freshBuild } from '../helpers/build';
import { createScratchProject, type ScratchProject } from '../helpers/scratch-project';
import { ask, settle, startE2E, W } from './harness';

/**
 * The ESM build as a site's bundler takes it: the packed package installed in a fresh project, `mount()` called from
 * the site's code, bundled by Vite, and served on the demo's origin (its proxy at /askbox, its simulator behind).
 * The add-ons are the package's own chunks, which the bundler splits off and the browser imports only when a reply
 * needs one; the `css` option is adopted after the widget's own sheets.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the bundled site is served, on the demo's origin. */
const BASE = '/site/';
/** The site's CSS for the widget: it ties Askbox's own selector, so only its place after Askbox's sheets makes it win. */
const SITE_CSS = '.head { background: rgb(60, 10, 10); }';

const SITE_CODE = `import { mount } from 'askbox';
mount({ botId: ${JSON.stringify(DEMO_BOT_ID)}, proxyUrl: '/askbox', theme: 'light', css: ${JSON.stringify(SITE_CSS)} });
`;
const SITE_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>A site bundling Askbox</title></head>
  <body><p>A site's page.</p><script type="module" src="./main.js"></script></body>
</html>
`;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let e2e: Awaited<ReturnType<typeof startE2E>>;
let project: ScratchProject;
let out = '';

beforeAll(async () => {
  freshBuild('dist/askbox.mjs');
  e2e = await startE2E();
  project = createScratchProject((tarball) => ['i', tarball]);
  writeFileSync(join(project.dir, 'index.html'), SITE_PAGE);
  writeFileSync(join(project.dir, 'main.js'), SITE_CODE);
  out = join(project.dir, 'out');
  // The site's own bundler run, with no config of ours: Vite's defaults, the package resolved from node_modules.
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--base', BASE, '--outDir', out],
    {
      cwd: project.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
}, 240_000);

afterAll(async () => {
  await e2e?.close();
  if (project) rmSync(dirname(project.dir), { recursive: true, force: true });
});

/** The bundled site, opened in a fresh context: its files served from the bundler's output. */
async function openSite() {
  const opened = await e2e.open('/plain.html');
  const { page } = opened;
  await page.route(`**${BASE}**`, (route) => {
    const path = new URL(route.request().url()).pathname.slice(BASE.length) || 'index.html';
    route.fulfill({
      contentType: TYPES[extname(path)] ?? 'application/octet-stream',
      body: readFileSync(join(out, path)),
    });
  });
  await page.goto(`${e2e.url}${BASE}`);
  return opened;
}

/** The bundle's files the page fetched, by the add-on they hold, in order. */
const addonsFetched = (requests: string[]) =>
  requests.flatMap((request) => /\/askbox-(code|math)[-.][\w-]*\.js$/.exec(request)?.[1] ?? []);

const headBackground = (page: Page) =>
  page.locator('askbox-widget .head').evaluate((el) => getComputedStyle(el).backgroundColor);

describe('the ESM build in a site bundled by Vite (Chromium, through the proxy)', () => {
  it('mounts from the site’s code, adopts its css after the widget’s own, and chats', async () => {
    const { page, consoleErrors, pageErrors, requests } = await openSite();
    await ask(page, 'How much does shipping cost?');
    await page.locator(W.bot).waitFor();
    expect(await headBackground(page)).toBe('rgb(60, 10, 10)');
    await settle(page);
    expect(addonsFetched(requests)).toEqual([]);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
  });

  it('imports the code add-on’s chunk for a fenced code block, and the math one for math, each once', async () => {
    const { page, consoleErrors, pageErrors, requests } = await openSite();
    await ask(page, 'Show me the JavaScript snippet');
    const token = page.locator(`${W.bot} pre code .hljs-string`).first();
    await token.waitFor();
    expect(addonsFetched(requests)).toEqual(['code']);
    const colours = await token.evaluate((el) => [
      getComputedStyle(el).color,
      getComputedStyle(el.closest('pre')!).color,
    ]);
    expect(colours[0]).not.toBe(colours[1]);

    await ask(page, 'What is the overage formula?');
    await page.locator(`${W.bot} math[display="block"]`).waitFor();
    expect(
      await page
        .locator(`${W.bot} math`)
        .first()
        .evaluate((el) => el.namespaceURI),
    ).toBe('http://www.w3.org/1998/Math/MathML');
    await settle(page);
    expect(addonsFetched(requests)).toEqual(['code', 'math']);
    expect([...consoleErrors, ...pageErrors]).toEqual([]);
  });
});
