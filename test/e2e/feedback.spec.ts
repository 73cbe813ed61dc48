import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { DEFAULT_TEXT } from '../../src/config/schema';
import type { ProxyLogEntry } from '../../src/proxy/core/options';
import { ask, deepActive, settle, startE2E, W } from './harness';

const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1} of a long answer, with enough words to wrap.`);

let e2e: Awaited<ReturnType<typeof startE2E>>;
/** The proxy's `feedback` lines: where a rating goes by default (see README, "Where ratings go"). */
const logged: { comment?: string }[] = [];

beforeAll(async () => {
  e2e = await startE2E(
    {
      replies: [
        { match: 'long', text: LONG.join('\n\n') },
        { match: 'plans', text: 'We have **two** plans.' },
      ],
    },
    {
      log: (entry: ProxyLogEntry) => {
        if (entry.event === 'feedback') logged.push(JSON.parse(entry.message ?? '{}') as { comment?: string });
      },
    },
  );
});
afterAll(() => e2e?.close());

const DOWN = `${W.bot} button[aria-label="${CHAT_TEXT.rateDown}"]`;

/** A page with one answered question whose widget counts its `feedback` events (`window.rated`). */
async function answered(question = 'Which plans?') {
  const opened = await e2e.open('/plain.html');
  await ask(opened.page, question);
  await opened.page.locator(DOWN).waitFor();
  await opened.page.evaluate(() => {
    const page = window as unknown as {
      rated: unknown[];
      Askbox: { on(type: string, fn: (d: unknown) => void): void };
    };
    page.rated = [];
    page.Askbox.on('feedback', (detail) => page.rated.push(detail));
  });
  return opened;
}

/** The proxy's feedback lines once the page's requests so far are answered; the widget's POSTs to /feedback. */
async function sent(opened: { page: Page; requests: string[] }, lines: number) {
  await expect.poll(() => logged.length, { timeout: 10_000 }).toBe(lines);
  await settle(opened.page);
  return opened.requests.filter((request) => request === 'POST /askbox/feedback').length;
}

describe('a thumbs-down and its comment, through the proxy and the simulator (Chromium)', () => {
  it('is one request, one log line and one `feedback` event, with the comment', async () => {
    logged.length = 0;
    const opened = await answered();
    const { page } = opened;
    await page.locator(DOWN).click();
    await page.getByLabel(CHAT_TEXT.comment).fill('Out of date');
    await settle(page);
    // Held while the visitor writes.
    expect(opened.requests).not.toContain('POST /askbox/feedback');
    await page.locator('askbox-widget .comment button[type="submit"]').click();
    expect(await sent(opened, 1)).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ rating: 'down', comment: 'Out of date' })]);
    expect(await page.evaluate(() => (window as unknown as { rated: unknown[] }).rated)).toEqual([
      expect.objectContaining({ rating: 'down', comment: 'Out of date' }),
    ]);
  });

  it('skipped, is one request and one line, without a comment', async () => {
    logged.length = 0;
    const opened = await answered();
    await opened.page.locator(DOWN).click();
    await opened.page.getByRole('button', { name: CHAT_TEXT.skip }).click();
    expect(await sent(opened, 1)).toBe(1);
    expect(logged).toEqual([expect.not.objectContaining({ comment: expect.anything() })]);
    expect(await opened.page.evaluate(() => (window as unknown as { rated: unknown[] }).rated)).toHaveLength(1);
  });

  it('left with the box open (pagehide), is sent once as the page goes', async () => {
    logged.length = 0;
    const opened = await answered();
    await opened.page.locator(DOWN).click();
    await opened.page.getByLabel(CHAT_TEXT.comment).waitFor();
    await settle(opened.page);
    expect(logged).toEqual([]);
    // The page goes (its requests are no longer the page's to report): the proxy's log tells what reached it.
    await opened.page.goto(`${e2e.url}/plain.html`);
    await expect.poll(() => logged.length, { timeout: 10_000 }).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ rating: 'down' })]);
  });
});

/** The comment field's box against the log's visible (client) box, and the reply's top against the log's. */
function commentPlacement(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')?.shadowRoot;
    const log = root?.querySelector('.log');
    const field = root?.querySelector('.comment input');
    const reply = field?.closest('.msg');
    if (!log || !field || !reply) return null;
    const top = log.getBoundingClientRect().top + log.clientTop;
    const box = field.getBoundingClientRect();
    return {
      above: Math.round(top - box.top),
      below: Math.round(box.bottom - (top + log.clientHeight)),
      height: Math.round(box.height),
      replyTop: Math.round(reply.getBoundingClientRect().top - top),
    };
  });
}

describe('the comment box of a long reply (Chromium)', () => {
  it('opens focused and wholly inside the log, which does not jump back to the reply’s top', async () => {
    const { page } = await answered('A long one, please');
    await page.locator(W.bot, { hasText: 'Paragraph 40' }).waitFor();
    // The visitor reads down to the reply's end, where its rating is.
    await page.locator('askbox-widget .log').hover();
    await page.mouse.wheel(0, 10_000);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('askbox-widget')?.shadowRoot?.querySelector('.jump')))
      .toBeNull();
    await page.locator(DOWN).click();
    await expect.poll(() => deepActive(page)).toBe('input.input');
    // Over the frames after it opened, when the log follows its grown content.
    for (let frame = 0; frame < 10; frame++) {
      const placed = await commentPlacement(page);
      expect(placed?.height).toBeGreaterThan(0);
      expect(placed?.above, JSON.stringify(placed)).toBeLessThanOrEqual(0);
      expect(placed?.below, JSON.stringify(placed)).toBeLessThanOrEqual(0);
      expect(placed?.replyTop).toBeLessThan(0);
      await page.evaluate(() => new Promise(requestAnimationFrame));
    }
  });
});

/**
 * Every text the panel's live regions took, in order, from now on (`window.spoken`): a region whose text changed,
 * and one added with its text already in it (which some screen readers read too).
 */
function recordLiveRegions(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('askbox-widget')!.shadowRoot!;
    const LIVE = '[aria-live], [role="status"], [role="alert"]';
    const spoken: string[] = [];
    (window as unknown as { spoken: string[] }).spoken = spoken;
    // One change of a region may come as several records (a text node out, another in): a text counts once.
    const last = new Map<Element, string>();
    const heard = (region: Element | null | undefined) => {
      const text = region?.textContent ?? '';
      if (!region || region.getAttribute('aria-live') === 'off' || !text || last.get(region) === text) return;
      last.set(region, text);
      spoken.push(text);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target instanceof Element ? record.target : record.target.parentElement;
        heard(target?.closest(LIVE));
        for (const added of record.addedNodes)
          if (added instanceof Element)
            for (const region of [added, ...added.querySelectorAll(LIVE)]) if (region.matches(LIVE)) heard(region);
      }
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

/** The confirmation's box, whether it is inside the panel, and the controls it overlaps. */
function confirmationBox(page: Page, selector: string) {
  return page.evaluate((css) => {
    const root = document.querySelector('askbox-widget')!.shadowRoot!;
    const note = root.querySelector(css);
    const panel = root.querySelector('.panel')!.getBoundingClientRect();
    if (!note) return null;
    const box = note.getBoundingClientRect();
    const overlaps = (other: DOMRect) =>
      box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom;
    return {
      text: note.textContent,
      width: box.width,
      height: box.height,
      inPanel: box.left >= panel.left && box.right <= panel.right && box.top >= panel.top && box.bottom <= panel.bottom,
      overlapping: [...root.querySelectorAll('button, input, a, textarea')]
        .filter((control) => overlaps(control.getBoundingClientRect()))
        .map((control) => control.getAttribute('aria-label') ?? control.textContent),
    };
  }, selector);
}

describe('visible confirmations, announced once (Chromium)', () => {
  it('a comment sent shows "Thanks for your feedback." where its box was', async () => {
    const { page } = await answered();
    await page.locator(DOWN).click();
    await page.getByLabel(CHAT_TEXT.comment).fill('Too short');
    await recordLiveRegions(page);
    await page.locator('askbox-widget .comment button[type="submit"]').click();
    await page.locator('askbox-widget .comment__thanks').waitFor();
    expect(await confirmationBox(page, '.comment__thanks')).toEqual({
      text: CHAT_TEXT.rated,
      width: expect.any(Number),
      height: expect.any(Number),
      inPanel: true,
      overlapping: [],
    });
    expect((await confirmationBox(page, '.comment__thanks'))?.height).toBeGreaterThan(0);
    await settle(page);
    const spoken = await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
    expect(spoken.filter((text) => text.includes(CHAT_TEXT.rated))).toHaveLength(1);
  });

  it('"Copy conversation" shows "Copied" beside the menu', async () => {
    const { page } = await answered();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await recordLiveRegions(page);
    await page.locator('askbox-widget button[aria-haspopup="menu"]').click();
    await page.locator(`askbox-widget [role="menuitem"]:text-is("${CHAT_TEXT.copyConversation}")`).click();
    await page.locator('askbox-widget .head__note').waitFor();
    const box = await confirmationBox(page, '.head__note');
    expect(box).toMatchObject({ text: DEFAULT_TEXT.copied, inPanel: true, overlapping: [] });
    expect(box?.width).toBeGreaterThan(0);
    await settle(page);
    const spoken = await page.evaluate(() => (window as unknown as { spoken: string[] }).spoken);
    expect(spoken.filter((text) => text.includes(DEFAULT_TEXT.copied))).toHaveLength(1);
  });
});
