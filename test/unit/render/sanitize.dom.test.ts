// @vitest-environment jsdom
// DOMPurify's own test environment: happy-dom's DOM differs in ways that make DOMPurify keep handlers, so the
// security table runs here (and, through the real widget, in Chromium: test/e2e/xss.spec.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMarkdownStream } from '../../../src/render/markdown';
import { createSanitizer, type Sanitize } from '../../../src/render/sanitize';
import { XSS_CASES } from '../../fixtures/xss';

// A new sanitiser for every test: nothing one test sanitised is remembered in the next.
let sanitize: Sanitize;
beforeEach(() => {
  sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });
});

const ALLOWED = new Set([
  'A',
  'B',
  'BLOCKQUOTE',
  'BR',
  'CODE',
  'DEL',
  'EM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HR',
  'I',
  'LI',
  'OL',
  'P',
  'PRE',
  'S',
  'STRONG',
  'TABLE',
  'TBODY',
  'TD',
  'TH',
  'THEAD',
  'TR',
  'UL',
  'SPAN',
]);
const ALLOWED_ATTRS = new Set(['href', 'title', 'start', 'align', 'target', 'rel']);
/** What the sanitiser itself sets on code blocks and tables (they scroll sideways): exactly these values. */
const SCROLLERS: Record<string, Record<string, string>> = {
  PRE: { tabindex: '0', role: 'region', 'aria-label': 'Code' },
  TABLE: { tabindex: '0', 'aria-label': 'Table' },
};

/** Drops the whitespace and control characters a browser ignores inside a URL scheme. */
function stripInvisible(url: string): string {
  return Array.from(url)
    .filter((c) => c.charCodeAt(0) > 0x20)
    .join('');
}

/** Renders markdown exactly as the widget does, into a live element, at every chunk boundary. */
function renderAll(markdown: string): HTMLElement[] {
  const stream = createMarkdownStream(document);
  const snapshots: HTMLElement[] = [];
  for (let end = 1; end <= markdown.length; end += Math.max(1, Math.floor(markdown.length / 7))) {
    const container = document.createElement('div');
    container.innerHTML = stream
      .update(markdown.slice(0, end), false)
      .map((html) => sanitize(html))
      .join('');
    snapshots.push(container);
  }
  const final = document.createElement('div');
  final.innerHTML = stream
    .update(markdown, true)
    .map((html) => sanitize(html))
    .join('');
  snapshots.push(final);
  return snapshots;
}

describe('markdown → DOMPurify: hostile replies', () => {
  it('has a table of at least 40 payloads', () => {
    expect(XSS_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(XSS_CASES)('$title: no script, handler, style, media or dangerous URL', ({ markdown }) => {
    for (const root of renderAll(markdown)) {
      for (const el of root.querySelectorAll('*')) {
        expect(ALLOWED, `<${el.tagName.toLowerCase()}> must not survive`).toContain(el.tagName);
        const own = SCROLLERS[el.tagName] ?? {};
        for (const attr of Array.from(el.attributes)) {
          if (Object.hasOwn(own, attr.name)) {
            expect(attr.value).toBe(own[attr.name]);
            continue;
          }
          expect(ALLOWED_ATTRS, `attribute ${attr.name} on <${el.tagName.toLowerCase()}>`).toContain(attr.name);
          if (attr.name === 'href') expect(stripInvisible(attr.value)).not.toMatch(/^(javascript|data|vbscript):/i);
        }
        if (el.tagName === 'A' && el.hasAttribute('href')) {
          expect(el.getAttribute('rel')).toBe('noopener noreferrer');
          expect(el.getAttribute('target')).toBe('_blank');
        }
      }
    }
  });

  it('makes code blocks and tables keyboard-reachable and named, whatever the reply says', () => {
    const root = renderAll(
      '```\nwide code\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n<pre tabindex="-1" role="button" aria-label="x">x</pre> <p tabindex="0">p</p>',
    ).at(-1);
    const pre = root?.querySelector('pre');
    const table = root?.querySelector('table');
    expect([pre?.getAttribute('tabindex'), pre?.getAttribute('role'), pre?.getAttribute('aria-label')]).toEqual([
      '0',
      'region',
      'Code',
    ]);
    expect([table?.getAttribute('tabindex'), table?.hasAttribute('role'), table?.getAttribute('aria-label')]).toEqual([
      '0',
      false,
      'Table',
    ]);
    // The reply's own attempts are plain text or dropped.
    expect(root?.querySelectorAll('[tabindex]')).toHaveLength(2);
    expect(root?.querySelector('[role="button"]')).toBeNull();
  });

  it('shows raw HTML as text instead of dropping what the bot said', () => {
    const [root] = renderAll('Use <b>bold</b> tags').slice(-1);
    expect(root?.textContent).toContain('<b>bold</b>');
    expect(root?.querySelector('b')).toBeNull();
  });

  it('fails closed, escaping everything, where DOMPurify is unsupported', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const { default: createDOMPurify } = await import('dompurify');
    vi.doMock('dompurify', () => ({
      default: () => ({ ...createDOMPurify(window), isSupported: false, addHook: () => undefined }),
    }));
    const unsupported = (await import('../../../src/render/sanitize')).createSanitizer(window, {
      code: 'Code',
      table: 'Table',
    });
    expect(unsupported('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(unsupported(`<a title="t" href='x'>&amp;</a>`)).toBe(
      '&lt;a title=&quot;t&quot; href=&#39;x&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    vi.doUnmock('dompurify');
  });

  it('keeps safe links, relative links and mailto, and turns images into links', () => {
    const root = renderAll(
      '[a](https://ok.test/x) [b](/help) [c](mailto:hi@ok.test) ![logo](https://ok.test/logo.png)',
    ).at(-1);
    expect(Array.from(root?.querySelectorAll('a') ?? [], (a) => a.getAttribute('href'))).toEqual([
      'https://ok.test/x',
      '/help',
      'mailto:hi@ok.test',
      'https://ok.test/logo.png',
    ]);
    expect(root?.querySelector('img')).toBeNull();
  });
});
