import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({ replies: [{ match: 'Versand', text: 'Der Versand ist **kostenlos**.' }] });
});
afterAll(() => e2e?.close());

const packs = (requests: string[]) => requests.filter((request) => request.includes('/askbox-locales/'));

describe('an Arabic page', () => {
  it('names the launcher in Arabic at once, before any pack', async () => {
    const { page, requests } = await e2e.open('/rtl.html');
    await page.locator(W.launcher).waitFor();
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('الدردشة');
    expect(packs(requests)).toEqual([]);
  });
});

describe('a German page', () => {
  it('speaks German: the launcher at once, the panel from a pack fetched on first interest', async () => {
    const { page, requests, consoleWarnings } = await e2e.open('/de.html');
    const launcher = page.locator(W.launcher);
    await launcher.waitFor();
    expect(await launcher.getAttribute('aria-label')).toBe('Chat');
    expect(await page.locator('askbox-widget .askbox').getAttribute('lang')).toBe('de');
    await settle(page);
    expect(packs(requests)).toEqual([]);

    await launcher.hover();
    await launcher.click();
    await page.locator(W.panel).waitFor();
    expect(packs(requests)).toEqual(['GET /askbox-locales/de.json']);
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Fragen Sie uns');
    expect(await page.locator(W.input).getAttribute('placeholder')).toBe('Ihre Frage…');
    expect([await launcher.getAttribute('aria-label'), await launcher.getAttribute('aria-expanded')]).toEqual([
      'Chat',
      'true',
    ]);

    await page.locator(W.input).fill('Was kostet der Versand?');
    await page.locator(W.input).press('Enter');
    await page.locator(`${W.bot} strong`).waitFor();
    expect(await page.getByRole('button', { name: 'Antwort kopieren' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(consoleWarnings).toEqual([]);
  });

  it('speaks English, with one warning, when its pack cannot be loaded, and keeps working', async () => {
    const { page, consoleWarnings } = await e2e.open('/de.html');
    await page.route('**/askbox-locales/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Ask us anything');
    expect(consoleWarnings).toEqual([expect.stringContaining('The de UI strings could not be loaded')]);
    await page.locator(W.input).fill('Was kostet der Versand?');
    await page.locator(W.input).press('Enter');
    await page.locator(`${W.bot} strong`).waitFor();
  });

  it('refuses a pack that is not an object of strings (the old array of lines) with the same warning', async () => {
    const { page, consoleWarnings } = await e2e.open('/de.html');
    await page.route('**/askbox-locales/de.json', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify(['Chat', 'Schließen']) }),
    );
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Ask us anything');
    expect(consoleWarnings).toEqual([expect.stringContaining('The de UI strings could not be loaded')]);
  });

  it('reads a pack by name: reordered, and without a key (that one reads in English)', async () => {
    const { page, consoleWarnings } = await e2e.open('/de.html');
    await page.route('**/askbox-locales/de.json', async (route) => {
      const { title: _title, ...pack } = (await (await route.fetch()).json()) as Record<string, string>;
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify(Object.fromEntries(Object.entries(pack).reverse())),
      });
    });
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await page.locator('askbox-widget .title').textContent()).toBe('Ask us anything');
    expect(await page.locator(W.input).getAttribute('placeholder')).toBe('Ihre Frage…');
    expect(consoleWarnings).toEqual([]);
  });
});

describe("the browser's languages", () => {
  it('are read only when the page’s own language does not settle the locale, and then choose it', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.addInitScript(() => {
      const counted = window as unknown as { languageReads: number };
      counted.languageReads = 0;
      Object.defineProperty(Navigator.prototype, 'languages', {
        configurable: true,
        get: () => {
          counted.languageReads += 1;
          return ['de-DE', 'en'];
        },
      });
    });
    const seen = async () => {
      await page.locator(W.launcher).waitFor();
      return page.evaluate(() => ({
        reads: (window as unknown as { languageReads: number }).languageReads,
        lang: document.querySelector('askbox-widget')?.shadowRoot?.querySelector('.askbox')?.getAttribute('lang'),
      }));
    };
    // <html lang="en"> settles it: English, and the browser's languages are never read.
    await page.reload();
    expect(await seen()).toEqual({ reads: 0, lang: 'en' });

    // A page without a language: the browser's first that Askbox speaks.
    await page.route(
      (url) => url.pathname === '/plain.html',
      async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: (await response.text()).replace('<html lang="en">', '<html>') });
      },
    );
    await page.reload();
    const { reads, lang } = await seen();
    expect(reads).toBeGreaterThan(0);
    expect(lang).toBe('de-DE');
  });
});
