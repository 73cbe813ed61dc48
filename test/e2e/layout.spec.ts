import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames, ask, atRest, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

const CODE =
  'Run this:\n\n```\nnpx askbox --bot-id 0123456789 --proxy-url https://example.com/askbox-proxy --x\n```\n\nDone.';

beforeAll(async () => {
  e2e = await startE2E(
    {
      replies: [
        { match: 'code', text: CODE, chunkSize: 200, sources: ['Shipping and returns', 'Pricing plans'] },
        { match: 'broken', text: 'Part of an answer', failedResponding: true },
        { match: 'install', text: 'Install it:\n\n```\nnpm install askbox\nnpm start\n```\n\nDone.' },
      ],
    },
    // Every case here is a visitor of its own, all from one address: more conversations than one IP may start.
    { limits: false },
  );
});
afterAll(() => e2e?.close());

/**
 * Pairs of boxes that overlap in the last reply: its text lines (one rect per line box), the copy and rating buttons, the
 * time, the sources and the jump button, each named by what it is. Boxes of one kind may touch each other. What the
 * log scrolls out of view is cut off at its edge: hidden, it lies over nothing.
 */
function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const replies = root?.querySelectorAll('.msg--bot:not(.msg--welcome)');
    const reply = replies?.[replies.length - 1];
    if (!root || !reply) throw new Error('no reply');
    const view = root.querySelector('.log')!.getBoundingClientRect();
    const boxes: { kind: string; rect: DOMRect }[] = [];
    /** Keeps what of `rect` lies inside the log's visible box, if anything. */
    const keep = (kind: string, rect: DOMRect) => {
      const left = Math.max(rect.left, view.left);
      const top = Math.max(rect.top, view.top);
      const width = Math.min(rect.right, view.right) - left;
      const height = Math.min(rect.bottom, view.bottom) - top;
      if (width > 0 && height > 0) boxes.push({ kind, rect: new DOMRect(left, top, width, height) });
    };
    const walker = document.createTreeWalker(reply.querySelector('.md') ?? reply, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) keep('text', rect);
    }
    const add = (kind: string, selector: string, scope: ParentNode = reply) => {
      for (const element of scope.querySelectorAll(selector)) {
        const rect = element.getBoundingClientRect();
        if (scope === reply) keep(kind, rect);
        else boxes.push({ kind, rect });
      }
    };
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

/**
 * The last reply's action buttons (copy, thumbs up, thumbs down): how many, how far apart their tops lie, their
 * heights, and whether two of them overlap.
 */
function actionRow(page: Page) {
  return page.evaluate(() => {
    const replies = document.querySelector('askbox-widget')?.shadowRoot?.querySelectorAll('.msg--bot');
    const buttons = replies?.[replies.length - 1]?.querySelectorAll('.msg__foot button') ?? [];
    const boxes = [...buttons].map((button) => button.getBoundingClientRect());
    const tops = boxes.map((box) => box.top);
    return {
      count: boxes.length,
      spread: Math.max(...tops) - Math.min(...tops),
      heights: new Set(boxes.map((box) => Math.round(box.height))).size,
      overlap: boxes.some((a, i) =>
        boxes
          .slice(i + 1)
          .some(
            (b) =>
              Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
              Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5,
          ),
      ),
    };
  });
}

/**
 * The last question's time, its bubble scrolled into view: how far it keeps from the question's text (the least gap
 * to any of its line boxes, negative when they overlap), and whether it lies inside the bubble and the log.
 */
function questionTime(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const questions = root?.querySelectorAll('.msg--user');
    const question = questions?.[questions.length - 1];
    const text = question?.querySelector('.msg__text');
    const time = question?.querySelector('.msg__time');
    const log = root?.querySelector('.log');
    if (!question || !text || !time || !log) throw new Error('no question');
    question.scrollIntoView({ block: 'nearest' });
    const range = document.createRange();
    range.selectNodeContents(text);
    const box = time.getBoundingClientRect();
    const gaps = [...range.getClientRects()].map((line) =>
      Math.max(line.left - box.right, box.left - line.right, line.top - box.bottom, box.top - line.bottom),
    );
    const within = (outer: DOMRect) =>
      box.left >= outer.left && box.right <= outer.right && box.top >= outer.top && box.bottom <= outer.bottom;
    return {
      gap: Math.round(Math.min(...gaps)),
      inBubble: within(question.getBoundingClientRect()),
      inLog: within(log.getBoundingClientRect()),
    };
  });
}

/**
 * The code block of the last reply and its copy button: whether the button lies inside the code's box (over its
 * corner), whether it shares a row with the code's first line, and the least gap between it and any line of code
 * (negative when they overlap).
 */
function codeCopy(page: Page) {
  return page.evaluate(() => {
    const replies = document.querySelector('askbox-widget')?.shadowRoot?.querySelectorAll('.msg--bot');
    const block = replies?.[replies.length - 1]?.querySelector('.md__block--code');
    const pre = block?.querySelector('pre');
    const button = block?.querySelector('.copy__btn');
    if (!pre || !button) throw new Error('no code block');
    const box = button.getBoundingClientRect();
    const code = pre.getBoundingClientRect();
    // The lines of code: the boxes of its text (one per line), not of the elements holding it.
    const lines: DOMRect[] = [];
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      lines.push(...[...range.getClientRects()].filter((line) => line.width > 0));
    }
    const first = lines[0]!;
    return {
      overlaid: box.top >= code.top && box.right <= code.right,
      firstLineBeside: first.top < box.bottom && first.bottom > box.top,
      gap: Math.min(
        ...lines.map((line) =>
          Math.max(line.left - box.right, box.left - line.right, line.top - box.bottom, box.top - line.bottom),
        ),
      ),
    };
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
      // The reply and its question, just put in, measured at their own size (see animationFrames).
      await animationFrames(page);
      // The rating buttons are in the footer row the check covers (issue 23).
      expect(await page.locator(`${W.bot} .rate--down`).count()).toBe(1);
      expect(await overlaps(page)).toEqual([]);
      // The question's time 4px or more clear of its text, inside its bubble and the log (issue 34 item 4).
      const time = await questionTime(page);
      expect(time.gap).toBeGreaterThanOrEqual(4);
      expect(time).toMatchObject({ inBubble: true, inLog: true });
      // At the log's end, however long the reply, its footer row is in view: copy and the thumbs in one row, of one
      // height, apart (issue 34 item 1).
      await page.locator('askbox-widget .log').evaluate((log) => log.scrollTo({ top: log.scrollHeight }));
      await animationFrames(page);
      expect(await overlaps(page)).toEqual([]);
      const row = await actionRow(page);
      expect(row.spread).toBeLessThanOrEqual(1);
      expect(row).toMatchObject({ count: 3, heights: 1, overlap: false });
    });

  it('lays the code’s copy button over its corner, beside a short first line, off a long one (phone)', async () => {
    const { page } = await e2e.open('/', { width: 390, height: 844, mobile: true });
    await ask(page, 'How do I install it?');
    await page.locator(`${W.bot} .md__block--code`).waitFor();
    const short = await atRest(page, () => codeCopy(page));
    expect(short).toMatchObject({ overlaid: true, firstLineBeside: true });
    expect(short.gap).toBeGreaterThanOrEqual(0);
    // A first line longer than the code box starts under the button: it scrolls sideways, under nothing.
    await ask(page, 'Show me the code');
    await page.locator(`${W.bot} .sources`).waitFor();
    const long = await atRest(page, () => codeCopy(page));
    expect(long).toMatchObject({ overlaid: true, firstLineBeside: false });
    expect(long.gap).toBeGreaterThanOrEqual(0);
  });

  it('offers "jump to latest" whenever the log is not at its end, in a row of its own under the log', async () => {
    const { page } = await e2e.open('/', { width: 1000, height: 600 });
    for (const [index, question] of ['Show me the code', 'And the code again?'].entries()) {
      await ask(page, question);
      await expect.poll(() => page.locator(`${W.bot} .sources`).count()).toBe(index + 1);
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
    // The failed reply, just put in, measured at its own size (see animationFrames).
    await animationFrames(page);
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
