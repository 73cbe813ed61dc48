import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, deepActive, settle, startE2E, W } from './harness';

const SLOW =
  'Step one of the answer.\n\n- first point\n- second point\n\n```js\nconst ready = true;\nconst done = false;\n```\n\nThat is all.';
/** A long reply of many short paragraphs, streamed as fast as the simulator can. */
const FAST = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long answer, with **bold** words.`).join(
  '\n\n',
);
let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 10 },
    replies: [
      {
        match: 'slow stream',
        text: SLOW,
        chunkSize: 4,
        delayMs: 60,
        sources: ['Shipping and returns', 'Pricing plans'],
      },
      { match: 'fast stream', text: FAST, chunkSize: 3, delayMs: 0 },
    ],
  });
});
afterAll(() => e2e?.close());

describe('chatting in Chromium', () => {
  it('costs nothing before the first click: no request, no storage, one global', async () => {
    const { page, requests, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await settle(page);
    expect(requests.filter((r) => !r.endsWith('/favicon.ico'))).toEqual(['GET /plain.html', 'GET /askbox.js']);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
      0,
      0,
      '',
    ]);
    const globals = await page.evaluate(() => {
      const frame = document.createElement('iframe');
      document.body.append(frame);
      const standard = new Set(Object.getOwnPropertyNames(frame.contentWindow));
      frame.remove();
      return Object.getOwnPropertyNames(window).filter((name) => !standard.has(name));
    });
    expect(globals).toEqual(['Askbox']);
    expect(consoleErrors).toEqual([]);
  });

  it('streams a reply in progressively, then shows it with its sources', async () => {
    const { page, requests } = await e2e.open('/');
    await ask(page, 'Please give me a slow stream');
    const snapshots: string[] = [];
    await expect
      .poll(
        async () => {
          const text = await page.evaluate(
            () =>
              document.querySelector('askbox-widget')?.shadowRoot?.querySelector('.msg--streaming')?.textContent ??
              null,
          );
          if (text && snapshots.at(-1) !== text) snapshots.push(text);
          return page.locator(`${W.bot} .sources`).count();
        },
        { interval: 40, timeout: 15_000 },
      )
      .toBe(1);
    // Several distinct intermediate states, each extending the one before: the reply grew in place.
    expect(snapshots.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < snapshots.length; i++)
      expect(snapshots[i]?.startsWith((snapshots[i - 1] ?? '').replace(/▍$/, '').trimEnd().slice(0, -2))).toBe(true);
    expect(snapshots.some((s) => s.includes('first point') && !s.includes('That is all'))).toBe(true);
    const reply = page.locator(W.bot).last();
    expect(await reply.locator('.md li').allTextContents()).toEqual(['first point', 'second point']);
    expect(await reply.locator('pre code').textContent()).toContain('const ready = true;');
    const links = reply.locator('.sources a');
    expect(await links.allTextContents()).toEqual(['Shipping and returns', 'Pricing plans']);
    expect(await links.first().getAttribute('rel')).toBe('noopener noreferrer');
    expect(requests).toContain('POST /askbox/conversations');
    expect(requests.some((r) => r.startsWith('GET /askbox/stream/'))).toBe(true);
    expect(await page.locator('askbox-widget [role="status"][aria-live="polite"]').textContent()).toContain(
      'Assistant: Step one of the answer.',
    );
  });

  it('updates a fast stream at most once per animation frame, and ends with exactly the reply', async () => {
    const { page } = await e2e.open('/');
    await page.locator(W.launcher).click();
    await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const probe = { frames: [] as number[], lengths: [] as number[], updates: 0, last: performance.now() };
      (window as unknown as { probe: typeof probe }).probe = probe;
      // DOM updates of the streaming reply since the last frame, counted per animation frame.
      new MutationObserver((records) => {
        if (
          records.some(
            (r) =>
              (r.target as Element).closest?.('.msg--streaming') ?? r.target.parentElement?.closest('.msg--streaming'),
          )
        )
          probe.updates += 1;
      }).observe(root as ShadowRoot, { subtree: true, childList: true, characterData: true });
      const frame = (now: number) => {
        probe.frames.push(probe.updates);
        probe.lengths.push(now - probe.last);
        probe.last = now;
        probe.updates = 0;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    await ask(page, 'Now a fast stream please');
    await page.locator(`${W.bot}`).last().locator('.md').filter({ hasText: 'Paragraph 60' }).waitFor();
    const { frames, lengths } = await page.evaluate(
      () => (window as unknown as { probe: { frames: number[]; lengths: number[] } }).probe,
    );
    const updated = frames.filter((updates) => updates > 0);
    // ~1,150 chunks, drawn in a few dozen frames: one update of the reply per frame. (@preact/signals flushes on
    // the next animation frame, or after 35 ms if no frame comes: a frame that a loaded machine draws late may also
    // take the flush of a timer that fired in it, one per 35 ms.)
    expect(updated.length).toBeGreaterThanOrEqual(5);
    expect(updated.toSorted((a, b) => a - b)[Math.floor(updated.length / 2)]).toBe(1);
    frames.forEach((updates, i) => expect(updates).toBeLessThanOrEqual(1 + Math.ceil((lengths[i] ?? 0) / 35)));
    expect(await page.locator(W.bot).last().locator('.md p').allTextContents()).toEqual(
      FAST.split('\n\n').map((paragraph) => paragraph.replaceAll('**', '')),
    );
  });

  it('restores the whole conversation after a reload, and starts a new one on request', async () => {
    const { page, requests } = await e2e.open('/');
    await ask(page, 'How much does shipping cost?');
    await page.locator(`${W.bot} .sources`).waitFor();
    await ask(page, 'And returns?');
    await expect.poll(() => page.locator(W.bot).count()).toBe(2);
    const before = await page.locator('askbox-widget .msg:not(.msg--welcome)').allTextContents();
    const listsBefore = requests.filter((r) => r === 'GET /askbox/messages').length;
    // Closed first: the open state is remembered for the session, and closed the panel stays closed after a reload.
    await page.locator(W.launcher).click();

    await page.reload();
    await page.locator(W.launcher).waitFor();
    expect(requests.filter((r) => r === 'GET /askbox/messages')).toHaveLength(listsBefore);
    await page.locator(W.launcher).click();
    await expect.poll(() => page.locator('askbox-widget .msg:not(.msg--welcome)').allTextContents()).toEqual(before);
    expect(requests.filter((r) => r === 'GET /askbox/messages')).toHaveLength(listsBefore + 1);

    await page.getByRole('button', { name: 'Start a new conversation' }).click();
    expect(await page.locator('askbox-widget .msg:not(.msg--welcome)').count()).toBe(0);
    await page.locator(W.welcome).waitFor();
    await ask(page, 'Tell me about pricing');
    await page.locator(`${W.bot} .sources`).waitFor();
    expect(requests.filter((r) => r === 'POST /askbox/conversations')).toHaveLength(2);
    // Left open, the panel reopens by itself after the reload.
    await page.reload();
    await expect.poll(() => page.locator(`${W.user} .msg__text`).allTextContents()).toEqual(['Tell me about pricing']);
  });

  it('works with the keyboard alone', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    for (let i = 0; i < 10 && (await deepActive(page)) !== 'button.launcher'; i++) await page.keyboard.press('Tab');
    expect(await deepActive(page)).toBe('button.launcher');
    await page.keyboard.press('Enter');
    await expect.poll(() => deepActive(page)).toBe('textarea.input');
    await page.keyboard.type('Hello there');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await page.locator(W.input).inputValue()).toBe('Hello there\nsecond line');
    await page.keyboard.press('Enter');
    await page.locator(W.bot).waitFor();
    expect(await page.locator(W.user).textContent()).toContain('Hello there\nsecond line');
    await page.keyboard.press('Escape');
    expect(await page.locator(W.panel).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.launcher');
  });

  it('is driven from the page through window.Askbox, with events', async () => {
    const { page } = await e2e.open('/');
    await page.locator(W.launcher).waitFor();
    await page.getByRole('button', { name: 'Ask “How do returns work?”' }).click();
    await page.locator(`${W.bot} .sources`).waitFor();
    expect(await page.locator(W.user).textContent()).toContain('How do returns work?');
    await expect.poll(() => page.locator('#events').textContent()).toMatch(/open\nsend .*\nreply /);
    expect(await page.locator(`${W.bot}`).last().textContent()).toMatch(/return any unused item within 30 days/);
  });

  it('answers bad calls from the page with a clear console error, changing nothing', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/');
    await page.locator(W.launcher).waitFor();
    await page.evaluate(async () => {
      const askbox = window.Askbox as unknown as { setTheme(t: unknown): void; send(t: unknown): Promise<void> };
      askbox.setTheme('neon');
      await askbox.send(42);
    });
    expect(consoleErrors).toEqual([
      '[askbox] setTheme() takes one of light, dark, auto',
      '[askbox] send() takes the message text as a string',
    ]);
    expect(pageErrors).toEqual([]);
    expect(await page.locator('askbox-widget .askbox--light').count()).toBe(1);
    expect(await page.locator(W.panel).count()).toBe(0);
  });
});
