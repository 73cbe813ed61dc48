import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'returns', text: 'Returns are free for **30 days**.', chunkSize: 40 },
      { match: 'slowly', text: 'One word at a time. '.repeat(40), chunkSize: 4, delayMs: 100 },
      { match: 'broken', failedResponding: true },
    ],
  });
});
afterAll(() => e2e?.close());

/** The focused element's accessible name as the tests use it (label, else text), looking through shadow roots. */
function focused(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el ? (el.getAttribute('aria-label') || el.textContent || el.tagName).trim() : '';
  })()`);
}

/** Presses Tab (or Shift+Tab) until the focused element is named `name`; fails if it is not reachable. */
async function tabTo(page: Page, name: string, backwards = false) {
  for (let step = 0; step < 40; step++) {
    if ((await focused(page)) === name) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`"${name}" is not reachable with ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

describe('keyboard only', () => {
  it('opens, asks a starter question, copies the reply, starts over, undoes it and closes, without a mouse', async () => {
    const { page, pageErrors } = await e2e.open('/');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });
    await page.locator(W.launcher).waitFor();

    await tabTo(page, 'Chat');
    // Every frame the panel (or the frame shown while the chat file loads) is drawn in, focus is inside it: in the
    // loading frame, then in the message box, never on the page's <body> in between.
    await page.evaluate(`(() => {
      window.__frames = [];
      const watch = () => {
        const root = document.querySelector('askbox-widget').shadowRoot;
        const active = root.activeElement;
        if (root.querySelector('.panel')) window.__frames.push(active && active.matches('textarea, .pending') ? active.tagName : 'outside');
        const settled = active && active.tagName === 'TEXTAREA' && window.__frames.length >= 5;
        if (!settled && window.__frames.length < 600) requestAnimationFrame(watch);
        else window.__settled = true;
      };
      requestAnimationFrame(watch);
    })()`);
    await page.keyboard.press('Enter');
    await page.waitForFunction('window.__settled === true');
    const frames = await page.evaluate<string[]>('window.__frames');
    expect(frames.filter((tag) => tag !== 'TEXTAREA' && tag !== 'DIV')).toEqual([]);
    expect(frames.at(-1)).toBe('TEXTAREA');
    expect(await focused(page)).toBe('Message');

    await tabTo(page, 'How do returns work?', true);
    await page.keyboard.press('Enter');
    // The starter is gone with the empty conversation; focus goes on to the message box, not to <body>.
    expect(await focused(page)).toBe('Message');
    await page.locator(`${W.bot} strong`).waitFor();
    expect(await page.locator(W.user).textContent()).toContain('How do returns work?');

    await tabTo(page, 'Copy reply', true);
    await page.keyboard.press('Enter');
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('Returns are free for **30 days**.');
    expect(await focused(page)).toBe('Copy reply');

    await tabTo(page, 'Start a new conversation', true);
    await page.keyboard.press('Enter');
    await page.getByText('Conversation cleared.').waitFor();
    expect(await page.locator(W.bot).count()).toBe(0);
    await tabTo(page, 'Undo', true);
    await page.keyboard.press('Enter');
    await page.locator(`${W.bot} strong`).waitFor();
    expect(await focused(page)).toBe('Message');

    await page.keyboard.press('Escape');
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Chat');
    expect(pageErrors).toEqual([]);
  });

  it('keeps focus in the widget after Stop and Retry, and Escape closes from the launcher too', async () => {
    const { page, pageErrors } = await e2e.open('/');
    await page.locator(W.launcher).waitFor();
    await tabTo(page, 'Chat');
    await page.keyboard.press('Enter');
    await page.locator(W.panel).waitFor();

    await page.keyboard.type('Answer slowly, please');
    await page.keyboard.press('Enter');
    await page.locator(W.streaming).waitFor();
    await tabTo(page, 'Stop generating');
    await page.keyboard.press('Enter');
    await page.getByText('Stopped.').waitFor();
    expect(await focused(page)).toBe('Message');

    await page.keyboard.type('This one is broken');
    await page.keyboard.press('Enter');
    await page.locator(W.panel).getByRole('button', { name: 'Retry' }).waitFor();
    await tabTo(page, 'Retry', true);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('Message');

    // Focus on the launcher (open, it closes the panel): Escape closes there as well.
    await tabTo(page, 'Chat');
    await page.keyboard.press('Escape');
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('Chat');
    expect(pageErrors).toEqual([]);
  });

  it('copies through the textarea fallback where the page refuses the Clipboard API, keeping focus on the button', async () => {
    const { page } = await e2e.open('/');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });
    // The clipboard may be shared between contexts: start it from something else.
    await page.evaluate(`navigator.clipboard.writeText('before')`);
    await page.evaluate(`navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))`);
    await page.locator(W.launcher).click();
    await page.locator(W.input).fill('How do returns work?');
    await page.locator(W.input).press('Enter');
    const copy = page.getByRole('button', { name: 'Copy reply' });
    await copy.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('Returns are free for **30 days**.');
    expect(await focused(page)).toBe('Copy reply');
  });
});
