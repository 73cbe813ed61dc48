import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames, ask, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const ROOT = new URL('../../', import.meta.url);
const README = readFileSync(fileURLToPath(new URL('README.md', ROOT)), 'utf8');
const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('package.json', ROOT)), 'utf8')) as {
  version: string;
};
const MANIFEST = JSON.parse(readFileSync(fileURLToPath(new URL('dist/manifest.json', ROOT)), 'utf8')) as Record<
  string,
  { integrity: string }
>;

/** The README's Install section, and in it the tag with `integrity` and the Content-Security-Policy line. */
function installExample() {
  const section = README.slice(README.indexOf('## Install'), README.indexOf('## Embedding'));
  const tag = /```html\n(<script[\s\S]*?integrity=[\s\S]*?<\/script>)\n```/.exec(section)?.[1];
  const csp = /^Content-Security-Policy: (.+)$/m.exec(section)?.[1];
  const cdn = /src="(https:\/\/cdn\.jsdelivr\.net\/npm\/askbox@([\d.]+)\/dist\/)askbox\.js"/.exec(tag ?? '');
  if (!tag || !csp || !cdn) throw new Error("README's Install section lost its SRI example");
  return { tag, csp, cdn: cdn[1] as string, version: cdn[2] };
}

describe("the README's Install example, in Chromium", () => {
  it('names the current version, and lists every shipped file in dist/manifest.json', () => {
    expect(installExample().version).toBe(version);
    expect(Object.keys(MANIFEST)).toEqual(
      expect.arrayContaining([
        'askbox.js',
        expect.stringMatching(/^askbox-chat\.[\w-]+\.js$/),
        'askbox-debug.js',
        'askbox-locales/de.json',
      ]),
    );
  });

  it('chats end to end from the CDN, the code add-on too, with integrity on the tag and the CSP it gives', async () => {
    const example = installExample();
    const tag = example.tag
      .replace('sha384-HASH_OF_ASKBOX_JS', MANIFEST['askbox.js']?.integrity ?? 'missing')
      .replace('yiu456ytyUjk', 'askboxDemo01');
    const { page, consoleErrors, pageErrors } = await e2e.open('/plain.html');
    // The CDN, as jsDelivr answers: the built files, readable from any origin (`crossorigin` needs that).
    const fetched: string[] = [];
    await page.route(`${example.cdn}**`, (route) => {
      const file = route.request().url().slice(example.cdn.length);
      fetched.push(file);
      return route.fulfill({
        status: 200,
        contentType: file.endsWith('.json') ? 'application/json' : 'text/javascript',
        headers: { 'access-control-allow-origin': '*' },
        body: readFileSync(fileURLToPath(new URL(`dist/${file}`, ROOT))),
      });
    });
    await page.route(`${e2e.url}/install.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        headers: { 'content-security-policy': example.csp },
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>${tag}</body></html>`,
      }),
    );
    await page.goto(`${e2e.url}/install.html`);
    const violations = () => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    await ask(page, 'How much does shipping cost?');
    await page.locator(W.bot).first().waitFor();
    expect(await page.locator(W.bot).first().textContent()).toMatch(/\S/);
    expect(fetched).toEqual(['askbox.js', expect.stringMatching(/^askbox-chat\.[\w-]+\.js$/)]);
    // A reply with code: its add-on comes from next to the chat file, on the CDN, within the same CSP.
    await ask(page, 'Show me the JavaScript snippet');
    await page.locator(`${W.bot} pre .hljs-string`).first().waitFor();
    expect(fetched.slice(2)).toEqual([expect.stringMatching(/^askbox-code\.[\w-]+\.js$/)]);
    // A violation is reported in a task after it: one made opening the panel, loading the chat or drawing the reply
    // is in two frames after the reply is on screen.
    await animationFrames(page);
    expect(await violations()).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('refuses an askbox.js that does not match the integrity on the tag: nothing of Askbox runs', async () => {
    const example = installExample();
    const tag = example.tag
      .replace(example.cdn, `${e2e.url}/`)
      .replace('sha384-HASH_OF_ASKBOX_JS', MANIFEST['askbox-debug.js']?.integrity ?? 'missing');
    const { page } = await e2e.open('/plain.html');
    await page.route(`${e2e.url}/wrong.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><body>${tag}</body></html>` }),
    );
    // The load event comes after the tag's script has run or been refused.
    await page.goto(`${e2e.url}/wrong.html`, { waitUntil: 'load' });
    await settle(page);
    expect(await page.locator('askbox-widget').count()).toBe(0);
    expect(await page.evaluate(() => 'Askbox' in window)).toBe(false);
  });
});
