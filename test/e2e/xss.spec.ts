import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_ALLOWLIST, MATH_ALLOWLIST } from '../../src/render/rich-allowlist';
import { XSS_CASES } from '../fixtures/xss';
import { RICH_XSS_CASES } from '../fixtures/xss-rich';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;
/** The reply table, and the payloads aimed at the code and math add-ons, which load for them as for any reply. */
const CASES = [...XSS_CASES, ...RICH_XSS_CASES];

beforeAll(async () => {
  // Each payload arrives as its own bot reply, streamed in small chunks so half-open tags cross chunk borders.
  e2e = await startE2E(
    {
      defaults: { delayMs: 0, chunkSize: [3, 7, 2] },
      replies: CASES.map((xss, index) => ({
        match: `payload ${index}.`,
        text: `${xss.markdown}\n\n<img src=x onerror="window.pwned=${index}">`,
      })),
      // One visitor asks a question per payload in a row: far past the proxy's limits for people.
    },
    { limits: false },
  );
});
afterAll(() => e2e?.close());

describe('hostile replies in the real widget, in Chromium', () => {
  it(`renders all ${CASES.length} payloads, through the add-ons too, without running any of them`, async () => {
    const { page, pageErrors } = await e2e.open('/');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (let index = 0; index < CASES.length; index++) {
      await ask(page, `payload ${index}.`);
      await expect.poll(() => page.locator(W.bot).count()).toBe(index + 1);
      await page.getByRole('button', { name: 'Send message' }).waitFor();
    }
    const found = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const replies = Array.from(root?.querySelectorAll('.md') ?? []);
      // What the sanitiser let through: the code blocks' copy buttons are the widget's own.
      const elements = replies.flatMap((r) => Array.from(r.querySelectorAll('*'))).filter((el) => !el.closest('.copy'));
      return {
        pwned: (window as unknown as { pwned?: number }).pwned,
        tags: [...new Set(elements.map((el) => el.tagName.toLowerCase()))].sort(),
        // The sanitiser's own attributes on code blocks and tables are named with their values: only those pass.
        attributes: [
          ...new Set(
            elements.flatMap((el) =>
              Array.from(el.attributes, (a) =>
                ['tabindex', 'role', 'aria-label'].includes(a.name)
                  ? `${el.tagName.toLowerCase()}[${a.name}=${a.value}]`
                  : a.name,
              ),
            ),
          ),
        ].sort(),
        classes: [
          ...new Set(elements.flatMap((el) => (el.getAttribute('class') ? [el.getAttribute('class') ?? ''] : []))),
        ],
        hrefs: elements.flatMap((el) => (el.getAttribute('href') ? [el.getAttribute('href') ?? ''] : [])),
      };
    });
    expect(found.pwned).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    const allowedTags = [
      'a',
      'blockquote',
      'br',
      'code',
      'div',
      'em',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'hr',
      'li',
      'ol',
      'p',
      'pre',
      's',
      'span',
      'strong',
      'table',
      'tbody',
      'td',
      'th',
      'thead',
      'tr',
      'ul',
      ...CODE_ALLOWLIST.tags,
      ...MATH_ALLOWLIST.tags,
    ];
    // The add-ons ran: the payloads' code was highlighted and their math typeset.
    expect(found.tags).toContain('math');
    for (const tag of found.tags) expect(allowedTags).toContain(tag);
    for (const attribute of found.attributes)
      expect([
        'class',
        'href',
        'rel',
        'start',
        'target',
        'title',
        'pre[tabindex=0]',
        'pre[role=region]',
        'pre[aria-label=Code]',
        'table[tabindex=0]',
        'table[aria-label=Table]',
        ...CODE_ALLOWLIST.attributes,
        ...MATH_ALLOWLIST.attributes,
      ]).toContain(attribute);
    for (const name of found.classes)
      expect(name).toMatch(/^(md|md__\w+|md__block md__block--code|hljs-[\w-]+( \w+_+)*)$/);
    for (const href of found.hrefs) expect(href).not.toMatch(/^\s*(javascript|data|vbscript):/i);
  }, 120_000);
});
