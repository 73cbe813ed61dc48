import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { ask, deepActive, retag, settle, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    defaults: { delayMs: 5 },
    replies: [
      { match: 'slowly', text: 'A reply that takes its time to arrive, word by word.', chunkSize: 4, delayMs: 80 },
    ],
  });
});
afterAll(() => e2e?.close());

/** Replaces the page's widget with one from a script tag carrying `attributes` (data-* names, camelCased). */
async function embed(page: Page, attributes: Record<string, string>) {
  await page.locator(W.launcher).waitFor();
  await retag(page, attributes);
  await page.waitForFunction(() => window.Askbox !== undefined);
}

const launcherBox = (page: Page) => page.locator(W.launcher).boundingBox();

describe('the launcher', () => {
  it('shows data-launcher-label beside the icon on a desktop, in its accessible name, and not on a phone', async () => {
    const { page } = await e2e.open('/plain.html');
    await embed(page, { launcherLabel: 'Questions? Ask us' });
    const button = page.locator('askbox-widget').getByRole('button', { name: 'Questions? Ask us, Chat' });
    await button.waitFor();
    expect(await page.locator('askbox-widget .launcher__label').isVisible()).toBe(true);
    const box = await launcherBox(page);
    expect(box?.width).toBeGreaterThan(150);
    // Still in the corner: its right edge where the round launcher's is.
    expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(1000 - 20);
    expect(await axeViolations(page)).toEqual([]);
    await button.click();
    expect((await launcherBox(page))?.width).toBe(56);
    expect(await page.locator('askbox-widget .launcher__label').isVisible()).toBe(false);

    const phone = await e2e.open('/plain.html', { width: 390, height: 844 });
    await embed(phone.page, { launcherLabel: 'Questions? Ask us' });
    await phone.page.locator(W.launcher).waitFor();
    expect((await launcherBox(phone.page))?.width).toBe(56);
    expect(await phone.page.locator('askbox-widget .launcher__label').isVisible()).toBe(false);
    expect(await phone.page.locator(W.launcher).getAttribute('aria-label')).toBe('Questions? Ask us, Chat');
    expect(await axeViolations(phone.page)).toEqual([]);
  });

  it('draws its icon without an SVG, 26px in the button’s colour: the chat bubble, and the cross while open', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    const icon = () =>
      page.evaluate(() => {
        const root = document.querySelector('askbox-widget')?.shadowRoot;
        const el = root?.querySelector('.launcher__icon');
        if (!el) return null;
        const style = getComputedStyle(el);
        const { width, height } = el.getBoundingClientRect();
        return {
          svg: root?.querySelectorAll('svg').length,
          size: [Math.round(width), Math.round(height)],
          inButtonColour: style.backgroundColor === style.color,
          clip: style.clipPath,
        };
      });
    const closed = await icon();
    expect(closed).toMatchObject({ svg: 0, size: [26, 26], inButtonColour: true });
    expect(closed?.clip).toMatch(/^path\("M ?4 4/);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    // Off the launcher, which grows while hovered.
    await page.mouse.move(0, 0);
    const open = await icon();
    expect(open?.clip).toMatch(/^path\("M ?6\.4 5/);
    expect(open?.size).toEqual([26, 26]);
  });

  it('shows an unread badge for a reply that completed while the panel was closed, and clears it on open', async () => {
    const { page } = await e2e.open('/plain.html');
    await ask(page, 'Answer me slowly please');
    await page.locator(W.streaming).waitFor();
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor({ state: 'detached' });
    const badge = page.locator('askbox-widget .launcher__badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('1');
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('Chat, 1 unread');
    // The badge sits on the launcher's corner, wholly on screen.
    const [box, launcher] = [await badge.boundingBox(), await launcherBox(page)];
    expect(box && launcher && box.x > launcher.x && box.y < launcher.y && box.x + box.width <= 1000).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    expect(await badge.isVisible()).toBe(false);
    expect(await page.locator(W.launcher).getAttribute('aria-label')).toBe('Chat');
  });

  it('is absent with data-launcher="false": the page opens the chat, and focus returns to its button', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await embed(page, { launcher: 'false' });
    await page.evaluate(() => {
      const cta = document.createElement('button');
      cta.id = 'cta';
      cta.textContent = 'Chat with us';
      cta.addEventListener('click', () => window.Askbox?.open());
      document.body.prepend(cta);
    });
    expect(await page.locator(W.launcher).count()).toBe(0);
    await page.locator('#cta').click();
    await page.locator(W.welcome).waitFor();
    expect(await deepActive(page)).toBe('textarea.input');
    const panel = await page.locator(W.panel).boundingBox();
    // No launcher below it to leave room for.
    expect(Math.round((panel?.y ?? 0) + (panel?.height ?? 0))).toBe(760 - 20);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cta');

    await page.locator('#cta').click();
    await page.locator(W.panel).locator('button[aria-label="Close"]').click();
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cta');
    expect(consoleErrors).toEqual([]);
  });
});

describe('the open state, remembered for the browser session', () => {
  it('stores nothing before the visitor opens the panel, then reopens after a reload until they close it', async () => {
    const { page } = await e2e.open('/plain.html');
    const chatFile = page.waitForEvent('requestfinished', {
      predicate: (r) => /askbox-chat\.[\w-]+\.js$/.test(r.url()),
    });
    await page.locator(W.launcher).hover();
    // Hovering loads the chat file and creates the chat, which stores nothing until the panel opens.
    await chatFile;
    await settle(page);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    expect(await page.evaluate(() => Object.entries(sessionStorage))).toEqual([
      ['askbox:v1:open:askboxDemo01@/askbox', '1'],
    ]);

    await page.reload();
    await page.locator(W.welcome).waitFor();
    // Reopened at load, it leaves focus where it is (no keyboard popping up on a phone).
    expect(await deepActive(page)).toBe('body');
    await page.locator(W.panel).locator('button[aria-label="Close"]').click();
    await page.locator(W.panel).waitFor({ state: 'detached' });
    await page.reload();
    await page.locator(W.launcher).waitFor();
    // A panel that reopens at load is drawn (its loading frame first) in the same task as the launcher.
    expect(await page.locator(W.panel).count()).toBe(0);
  });

  it('keeps working when sessionStorage throws (Safari private mode, sandboxed iframes)', async () => {
    const { page, pageErrors, consoleErrors } = await e2e.open('/plain.html');
    await page.addInitScript(() =>
      Object.defineProperty(window, 'sessionStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      }),
    );
    await page.reload();
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    await page.keyboard.press('Escape');
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
