import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

const CODE =
  'Run this:\n\n```\nnpx askbox --bot-id 0123456789 --proxy-url https://example.com/askbox-proxy --x\n```\n\nDone.';

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'code', text: CODE, chunkSize: 200, sources: ['Shipping and returns', 'Pricing plans'] },
      { match: 'broken', text: 'Part of an answer', failedResponding: true },
    ],
  });
});
afterAll(() => e2e?.close());

/**
 * Pairs of boxes that overlap in the last reply: its text lines (one rect per line box), the copy and rating buttons, the
 * time, the sources and the jump button, each named by what it is. Boxes of one kind may touch each other.
 */
function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const replies = root?.querySelectorAll('.msg--bot:not(.msg--welcome)');
    const reply = replies?.[replies.length - 1];
    if (!root || !reply) throw new Error('no reply');
    const boxes: { kind: string; rect: DOMRect }[] = [];
    const walker = document.createTreeWalker(reply.querySelector('.md') ?? reply, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) boxes.push({ kind: 'text', rect });
    }
    const add = (kind: string, selector: string, scope: ParentNode = reply) => {
      for (const element of scope.querySelectorAll(selector))
        boxes.push({ kind, rect: element.getBoundingClientRect() });
    };
    // The rating buttons share the copy button's look (and class): they are told apart here.
    add('copy', '.copy__btn:not(.rate--up):not(.rate--down)');
    add('rate', '.rate--up, .rate--down');
    add('time', '.msg__time');
    add('sources', '.sources');
    add('retry', '.link-button');
    add('jump', '.jump', root);
    const hits: string[] = [];
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        if (
          a.kind === b.kind ||
          (a.kind === 'sources' && b.kind === 'text') ||
          (a.kind === 'text' && b.kind === 'sources')
        )
          continue;
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (x > 0.5 && y > 0.5) hits.push(`${a.kind} over ${b.kind}`);
      }
    return hits;
  });
}

/** Shows every reply's time, as hovering or focusing it does, and optionally enlarges the messages' text. */
async function reveal(page: Page, fontSize?: number) {
  await page.evaluate((size) => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const style = document.createElement('style');
    style.textContent = `.msg__time { opacity: 1 !important }${size ? `.msg, .msg * { font-size: ${size}px !important; line-height: 1.5 !important }` : ''}`;
    root?.append(style);
  }, fontSize);
}

const LOOKS = [
  { name: 'light', path: '/', options: {} },
  { name: 'dark', path: '/left-dark.html', options: {} },
  { name: 'phone', path: '/', options: { width: 390, height: 844, mobile: true } },
  { name: 'phone at 2×', path: '/', options: { width: 390, height: 844, mobile: true }, pixelRatio: 2 },
  { name: 'RTL', path: '/rtl.html', options: {} },
  { name: '200% text', path: '/', options: {}, fontSize: 28 },
] as const;

describe('where things land (Chromium)', () => {
  // The code's copy button too: a long line of code scrolls sideways under whatever sits over the code.
  for (const look of LOOKS)
    it(`keeps text, copy and rating buttons, time and sources apart: ${look.name}`, async () => {
      const { page } = await e2e.open(look.path, look.options);
      // Two device pixels to the CSS pixel, as most phones have: where half pixels round differently.
      if ('pixelRatio' in look)
        await (
          await page.context().newCDPSession(page)
        ).send('Emulation.setDeviceMetricsOverride', {
          ...look.options,
          deviceScaleFactor: look.pixelRatio,
        });
      expect(await page.evaluate(() => window.devicePixelRatio)).toBe('pixelRatio' in look ? look.pixelRatio : 1);
      await ask(page, 'Show me the code');
      await page.locator(`${W.bot} .sources`).waitFor();
      await reveal(page, 'fontSize' in look ? look.fontSize : undefined);
      // The rating buttons are in the footer row the check covers (issue 23).
      expect(await page.locator(`${W.bot} .rate--down`).count()).toBe(1);
      expect(await overlaps(page)).toEqual([]);
    });

  it('offers "jump to latest" whenever the log is not at its end, in a row of its own under the log', async () => {
    const { page } = await e2e.open('/', { width: 1000, height: 600 });
    for (const question of ['Show me the code', 'And the code again?']) {
      await ask(page, question);
      await expect.poll(() => page.locator(`${W.bot} .sources`).count()).toBeGreaterThan(0);
    }
    const jump = page.locator('askbox-widget .jump');
    expect(await jump.count()).toBe(0);
    const log = page.locator('askbox-widget .log');
    const box = await log.boundingBox();
    await page.mouse.move((box?.x ?? 0) + 20, (box?.y ?? 0) + 20);
    await page.mouse.wheel(0, -400);
    await jump.waitFor();
    const [button, area] = await Promise.all([jump.boundingBox(), log.boundingBox()]);
    expect((button?.y ?? 0) >= (area?.y ?? 0) + (area?.height ?? 0)).toBe(true);
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    expect(await log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
  });

  it('lines Retry up with the text above it', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'This is broken');
    const retry = page.locator(`${W.bot} .link-button`);
    await retry.waitFor();
    const [button, text] = await Promise.all([retry.boundingBox(), page.locator(`${W.bot} .md p`).boundingBox()]);
    expect(button?.x).toBe(text?.x);
  });

  it('frames the message box once on mouse focus: the ring over its border, not outside it', async () => {
    const { page } = await e2e.open('/');
    await page.locator(W.launcher).click();
    await page.locator(W.input).click();
    const outside = await page.locator(W.input).evaluate((el) => {
      const style = getComputedStyle(el);
      return style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    });
    expect(outside).toBeLessThanOrEqual(0);
  });

  it('writes in the message box at the messages’ size with a mouse, and at 16 px on a touch screen', async () => {
    const sizes = async (touch: boolean) => {
      const { page } = await e2e.open('/plain.html', touch ? { width: 390, height: 844, mobile: true } : {});
      await ask(page, 'first');
      await page.locator(W.bot).waitFor();
      const size = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => getComputedStyle(el).fontSize);
      return { box: await size(W.input), message: await size(`${W.bot} .md p`) };
    };
    expect(await sizes(false)).toEqual({ box: '14px', message: '14px' });
    // iOS Safari zooms the page into a text box under 16 px when it takes focus.
    expect(await sizes(true)).toEqual({ box: '16px', message: '14px' });
  });
});
