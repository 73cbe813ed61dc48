import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationFrames, ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

// Each reply but its last character at once, then a pause: the caret is measured mid-stream.
const held = (match: string, text: string) => ({ match, text, chunkSize: [text.length - 1, 1], delayMs: 3000 });

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      held('list', 'Steps:\n\n1. Open\n   - nested one\n   - nested two\n2. Pick a plan and pay'),
      held('code', 'Run:\n\n```\nnpm install askbox\nnpm start'),
    ],
  });
});
afterAll(() => e2e?.close());

/** The elements of the streaming reply whose `::after` shows the caret, by tag and text. */
async function carets(page: Parameters<typeof ask>[0]) {
  return page
    .locator(W.streaming)
    .evaluate((reply) =>
      [...reply.querySelectorAll('*')]
        .filter((el) => getComputedStyle(el, '::after').content.includes('▍'))
        .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.trim().split('\n').at(-1)}`),
    );
}

/** A node of the DevTools protocol's DOM tree. */
interface ProtocolNode {
  attributes?: string[];
  children?: ProtocolNode[];
  shadowRoots?: ProtocolNode[];
  pseudoElements?: (ProtocolNode & { nodeId: number; pseudoType?: string })[];
}

/** The node marked `data-caret`, through shadow roots. */
const findMarked = (node: ProtocolNode): ProtocolNode | undefined =>
  node.attributes?.includes('data-caret')
    ? node
    : [...(node.children ?? []), ...(node.shadowRoots ?? [])].map(findMarked).find(Boolean);

/** A box in CSS pixels of the main frame's viewport. */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Where the caret is drawn, measured by Chromium itself (a pseudo-element has no DOM rects: the DevTools protocol
 * gives its box), with the last character written and every line of the reply's text.
 */
async function caretGeometry(page: Page) {
  // The streaming bubble comes with the text waited for: measured at its own size (see animationFrames).
  await animationFrames(page);
  const text = await page.locator(W.streaming).evaluate((reply) => {
    const lines: { left: number; top: number; right: number; bottom: number }[] = [];
    let last: Text | undefined;
    const walker = document.createTreeWalker(reply.querySelector('.md') ?? reply, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      last = node as Text;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) lines.push(r.toJSON());
    }
    const end = last?.textContent?.trimEnd().length ?? 0;
    const range = document.createRange();
    if (last) {
      range.setStart(last, end - 1);
      range.setEnd(last, end);
    }
    let rtl = false;
    for (const el of reply.querySelectorAll('*'))
      if (getComputedStyle(el, '::after').content.includes('▍')) {
        el.setAttribute('data-caret', '');
        rtl = getComputedStyle(el).direction === 'rtl';
      }
    return { lines, lastCharacter: range.getBoundingClientRect().toJSON() as Box, rtl };
  });
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const after = findMarked(root)?.pseudoElements?.find((pseudo) => pseudo.pseudoType === 'after');
  if (!after) throw new Error('no caret');
  const { model } = await cdp.send('DOM.getBoxModel', { nodeId: after.nodeId });
  await cdp.detach();
  const [x1 = 0, y1 = 0, x2 = 0, , , y3 = 0] = model.content;
  return { ...text, caret: { left: x1, top: y1, right: x2, bottom: y3 } };
}

/** Whether the caret sits on the last character's line, just after it, over no text. */
async function followsLastCharacter(page: Page) {
  const { caret, lastCharacter, lines, rtl } = await caretGeometry(page);
  const middle = (caret.top + caret.bottom) / 2;
  const onItsLine = middle > lastCharacter.top && middle < lastCharacter.bottom;
  const after = rtl
    ? caret.right <= lastCharacter.left + 0.5 && lastCharacter.left - caret.right < 12
    : caret.left >= lastCharacter.right - 0.5 && caret.left - lastCharacter.right < 12;
  const overText = lines.some(
    (line) =>
      Math.min(line.right, caret.right) - Math.max(line.left, caret.left) > 0.5 &&
      Math.min(line.bottom, caret.bottom) - Math.max(line.top, caret.top) > 0.5,
  );
  return { onItsLine, after, overText };
}

/** Where the caret is checked: light, dark, phone, right to left, and messages' text at 200 %. */
const LOOKS = [
  { name: 'light', path: '/', options: {} },
  { name: 'dark', path: '/left-dark.html', options: {} },
  { name: 'phone', path: '/', options: { width: 390, height: 844, mobile: true } },
  { name: 'RTL', path: '/rtl.html', options: {} },
  { name: '200% text', path: '/', options: {}, fontSize: 28 },
] as const;

describe.each(LOOKS)('the streaming caret follows the last character written ($name)', (look) => {
  /** Opens the look's page, enlarging the messages' text where it asks to. */
  async function open() {
    const { page } = await e2e.open(look.path, look.options);
    if ('fontSize' in look)
      await page.evaluate((size) => {
        const style = document.createElement('style');
        style.textContent = `.msg, .msg * { font-size: ${size}px !important; line-height: 1.5 !important }`;
        document.querySelector('askbox-widget')?.shadowRoot?.append(style);
      }, look.fontSize);
    return page;
  }

  it('in a list: after the last item, not on a line of its own', async () => {
    const page = await open();
    await ask(page, 'Show me a list');
    await page.locator(W.streaming, { hasText: 'Pick a plan and pa' }).waitFor();
    expect(await carets(page)).toEqual(['li: Pick a plan and pa']);
    expect(await followsLastCharacter(page)).toEqual({ onItsLine: true, after: true, overText: false });
  });

  it('in a code block: after the code', async () => {
    const page = await open();
    await ask(page, 'Show me code');
    await page.locator(W.streaming, { hasText: 'npm star' }).waitFor();
    expect(await carets(page)).toEqual(['code: npm star']);
    expect(await followsLastCharacter(page)).toEqual({ onItsLine: true, after: true, overText: false });
  });
});
