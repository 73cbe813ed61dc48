import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [{ match: 'docs', text: 'See [the docs](https://docs.example.test/a).', sources: ['Pricing plans'] }],
  });
});
afterAll(() => e2e?.close());

/** Brand colours a site may pick: very light, very dark, mid tones, and every syntax `data-accent` takes. */
const ACCENTS = [
  '#ffff00',
  '#fde047',
  'gold',
  '#a7f3d0',
  '#fbcfe8',
  'white',
  'navy',
  '#111',
  'black',
  'darkred',
  '#4f46e5',
  '#0e9f6e',
  '#f97316',
  '#808080',
  'hsl(200 90% 60%)',
  'oklch(0.75 0.15 150)',
  // Outside sRGB: judged as displayed.
  'oklch(0.9 0.3 140)',
  'rgb(0 120 255)',
  // A dark brand colour on the dark theme's #1d1f24.
  '#1a1a2e',
];

/** Light and dark by the data-theme, and `auto` on a dark system. */
const THEMES = [
  ['light', 'light'],
  ['dark', 'dark'],
  ['auto', 'dark'],
] as const;

/**
 * The contrast of each text and icon on its background, and of each focus ring on what surrounds it, from the
 * colours Chromium renders: each is drawn on a canvas and read back as sRGB, whatever syntax it computes to.
 */
function measure(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!root || !ctx) throw new Error('no widget or canvas');
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- page.evaluate sends this one function alone
    const linear = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const luminance = (colour: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return Math.round((((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05)) * 100) / 100;
    };
    const find = (selector: string) => {
      const element = root.querySelector(selector);
      if (!element) throw new Error(`missing ${selector}`);
      return element;
    };
    /** The first opaque background at or above `element`. */
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- page.evaluate sends this one function alone
    const backdrop = (element: Element | null): string => {
      for (let el = element; el; el = el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null) {
        const background = getComputedStyle(el).backgroundColor;
        if (background !== 'rgba(0, 0, 0, 0)') return background;
      }
      return 'rgb(255, 255, 255)';
    };
    const on = (selector: string) => {
      const element = find(selector);
      return ratio(getComputedStyle(element).color, backdrop(element));
    };
    const bot = '.msg--bot:not(.msg--welcome)';
    const texts = {
      title: on('.title'),
      user: on('.msg--user .msg__text'),
      link: on(`${bot} .md a`),
      source: on(`${bot} .sources a`),
    };
    const icons = {
      header: on('.head .icon-button'),
      launcher: on('.launcher'),
      send: on('.send'),
    };
    // Focus rings: an inset ring (the log's) lies on the element's own backdrop, an outset one on its parent's.
    const rings: Record<string, number> = {};
    for (const selector of ['.head .icon-button', '.log', `${bot} .md a`, `${bot} .sources a`, 'textarea']) {
      const element = find(selector) as HTMLElement;
      element.focus();
      const style = getComputedStyle(element);
      if (!element.matches(':focus-visible') || style.outlineStyle !== 'solid' || parseFloat(style.outlineWidth) < 2)
        throw new Error(`${selector} shows no focus ring`);
      const inset = parseFloat(style.outlineOffset) < 0;
      rings[selector] = ratio(style.outlineColor, backdrop(inset ? element : element.parentElement));
    }
    /**
     * A shape's boundary (WCAG 1.4.11): its fill, as composited at its opacity, or its border against what lies
     * around it, whichever contrasts more.
     */
    const edge = (selector: string, around: string) => {
      const element = find(selector);
      const style = getComputedStyle(element);
      const alpha = Number(style.opacity);
      const seen = (colour: string) => {
        ctx.fillStyle = around;
        ctx.fillRect(0, 0, 1, 1);
        ctx.globalAlpha = alpha;
        ctx.fillStyle = colour;
        ctx.fillRect(0, 0, 1, 1);
        ctx.globalAlpha = 1;
        const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
        return `rgb(${r}, ${g}, ${b})`;
      };
      const border = parseFloat(style.borderBottomWidth) >= 1 ? ratio(seen(style.borderBottomColor), around) : 1;
      return Math.max(ratio(seen(style.backgroundColor), around), border);
    };
    const surface = backdrop(find('.log'));
    const boundaries = {
      bubble: edge('.msg--user', surface),
      header: edge('.head', surface),
      send: edge('.send', backdrop(find('.composer'))),
    };
    return { texts, icons, rings, boundaries };
  });
}

async function themed(page: Page, theme: 'light' | 'dark' | 'auto', system: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: system });
  await page.evaluate((next) => window.Askbox?.setTheme(next), theme);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
}

/** A reply with a link and a source, and a draft in the box (the send button is enabled). */
async function withReply(page: Page) {
  await ask(page, 'Where are the docs?');
  await page.locator(`${W.bot} .sources a`).waitFor();
  await page.locator(W.input).fill('Thanks');
  // Keyboard modality: from now on focus() shows the ring, as it does for a keyboard user.
  await page.keyboard.press('Shift+Tab');
}

const setAccent = (page: Page, accent: string) =>
  page.evaluate(
    (value) => document.querySelector<HTMLElement>('askbox-widget')?.style.setProperty('--askbox-accent', value),
    accent,
  );

describe('contrast for any accent, in light, dark and auto (Chromium)', () => {
  it('reads at AA: 4.5:1 for text and links, 3:1 for icons and focus rings', async () => {
    const { page } = await e2e.open('/plain.html');
    await withReply(page);
    const failures: string[] = [];
    for (const accent of ACCENTS) {
      await setAccent(page, accent);
      for (const [theme, system] of THEMES) {
        await themed(page, theme, system);
        const { texts, icons, rings } = await measure(page);
        const check = (group: Record<string, number>, min: number) => {
          for (const [part, value] of Object.entries(group))
            if (value < min) failures.push(`${accent} ${theme}: ${part} ${value}:1`);
        };
        check(texts, 4.5);
        check(icons, 3);
        check(rings, 3);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('draws the visitor bubble, the header and Send (enabled or not) at 3:1 to what surrounds them', async () => {
    const { page } = await e2e.open('/plain.html');
    await withReply(page);
    const failures: string[] = [];
    for (const draft of ['Thanks', '']) {
      await page.locator(W.input).fill(draft);
      for (const accent of ACCENTS) {
        await setAccent(page, accent);
        for (const [theme, system] of THEMES) {
          await themed(page, theme, system);
          const { boundaries } = await measure(page);
          for (const [part, value] of Object.entries(boundaries))
            if (value < 3) failures.push(`${accent} ${theme}${draft ? '' : ' (disabled)'}: ${part} ${value}:1`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('is axe-clean for every accent, light and dark', async () => {
    const { page } = await e2e.open('/plain.html');
    await withReply(page);
    for (const accent of ACCENTS) {
      await setAccent(page, accent);
      for (const theme of ['light', 'dark'] as const) {
        await themed(page, theme, theme);
        expect(await axeViolations(page), `${accent} ${theme}`).toEqual([]);
      }
    }
  }, 120_000);

  it('rings the launcher black on white, to contrast with any page behind it', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const ring = await page.locator(W.launcher).evaluate((el) => {
      const style = getComputedStyle(el);
      return { visible: el.matches(':focus-visible'), outline: style.outlineColor, halo: style.boxShadow };
    });
    expect(ring).toMatchObject({ visible: true, outline: 'rgb(0, 0, 0)' });
    expect(ring.halo).toMatch(/^rgb\(255, 255, 255\) 0px 0px 0px 2px/);
  });

  it('takes the text colour on the accent from data-accent-text, with data-accent', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.evaluate(() => {
      window.Askbox?.destroy();
      const script = document.createElement('script');
      script.src = '/askbox.js';
      Object.assign(script.dataset, {
        botId: document.querySelector<HTMLScriptElement>('script[data-bot-id]')?.dataset.botId,
        proxyUrl: '/askbox',
        accent: '#fde047',
        accentText: 'rgb(120, 20, 20)',
        open: '',
      });
      document.body.append(script);
    });
    await page.locator(W.panel).waitFor();
    // Send on the accent: with something to send (disabled, it is an outline in the muted colour).
    await page.locator(W.input).fill('Hello');
    const colour = (selector: string, property: 'color' | 'backgroundColor') =>
      page.locator(selector).evaluate((el, name) => getComputedStyle(el)[name], property);
    expect(await colour(W.launcher, 'backgroundColor')).toBe('rgb(253, 224, 71)');
    for (const part of [W.launcher, 'askbox-widget .title', 'askbox-widget .send'])
      expect(await colour(part, 'color'), part).toBe('rgb(120, 20, 20)');
  });
});

/** Each highlighted token's contrast on the code background, as Chromium renders both, by token class. */
function tokenContrast(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!root || !ctx) throw new Error('no widget or canvas');
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- page.evaluate sends this one function alone
    const linear = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    const luminance = (colour: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const ratios: Record<string, number> = {};
    for (const token of root.querySelectorAll('.msg--bot pre [class^="hljs-"]')) {
      const background = getComputedStyle(token.closest('pre') as Element).backgroundColor;
      const [hi = 0, lo = 0] = [luminance(getComputedStyle(token).color), luminance(background)].sort((x, y) => y - x);
      ratios[token.className] = Math.min(
        ratios[token.className] ?? 99,
        Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
      );
    }
    return ratios;
  });
}

describe('highlighted code (the code add-on), in light, dark, auto and forced colours (Chromium)', () => {
  it('draws every token at AA, 4.5:1, on the code background', async () => {
    const { page } = await e2e.open('/plain.html');
    // The knowledge base's answer: a JavaScript block and an HTML one.
    await ask(page, 'Show me the JavaScript snippet');
    await page.locator(`${W.bot} pre .hljs-string`).first().waitFor();
    const failures: string[] = [];
    let seen = 0;
    for (const [theme, system] of THEMES) {
      await themed(page, theme, system);
      const ratios = await tokenContrast(page);
      seen = Object.keys(ratios).length;
      for (const [token, value] of Object.entries(ratios))
        if (value < 4.5) failures.push(`${theme}: ${token} ${value}:1`);
    }
    await page.emulateMedia({ forcedColors: 'active', colorScheme: 'light' });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    for (const [token, value] of Object.entries(await tokenContrast(page)))
      if (value < 4.5) failures.push(`forced colours: ${token} ${value}:1`);
    expect(seen).toBeGreaterThanOrEqual(6);
    expect(failures).toEqual([]);
  });
});
