import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../src/config/chat-text';
import type { FeedbackEvent } from '../../src/proxy/core/options';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { axeViolations } from './axe';
import { ask, deepActive, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;
/** What the proxy handed its `onFeedback`. */
const feedback: FeedbackEvent[] = [];

beforeAll(async () => {
  e2e = await startE2E(
    {
      replies: [
        { match: 'plans', text: 'We have **two** plans.', sources: ['Pricing plans'] },
        { match: 'steps', text: 'إليك الخطوات', sources: ['Pricing plans'] },
      ],
    },
    // Every case here is a visitor of its own, all from one address: more conversations than one IP may start.
    { onFeedback: (event) => void feedback.push(event), limits: false },
  );
});
afterAll(() => e2e?.close());

const MENU_BUTTON = 'askbox-widget button[aria-haspopup="menu"]';
const MENU = 'askbox-widget [role="menu"]';
const item = (name: string) => `askbox-widget [role="menuitem"]:text-is("${name}")`;
const focusedText = (page: Page) =>
  page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.textContent ?? null;
  });
const conversation = (page: Page) =>
  page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? 'null') as { id: string; grant: string } | null,
    `askbox:v1:conversation:${DEMO_BOT_ID}@/askbox`,
  );

/** A page with one answered question, on the strict-CSP page unless `path` says otherwise. */
async function answered(path = '/csp.html', question = 'Which plans?', options = {}) {
  const opened = await e2e.open(path, options);
  await ask(opened.page, question);
  await opened.page.locator(`${W.bot} .sources`).waitFor();
  return opened;
}

describe('the header menu (Chromium)', () => {
  it('walks by keyboard: Enter opens, arrows, Home, End, Escape closes only the menu and returns focus', async () => {
    const { page } = await answered();
    expect(await page.locator(MENU_BUTTON).getAttribute('aria-label')).toBe(CHAT_TEXT.menu);
    await page.locator(MENU_BUTTON).focus();
    await page.keyboard.press('Enter');
    expect(await focusedText(page)).toBe(CHAT_TEXT.conversations);
    expect(await page.locator(MENU_BUTTON).getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText(page)).toBe(CHAT_TEXT.copyConversation);
    await page.keyboard.press('End');
    expect(await focusedText(page)).toBe(CHAT_TEXT.deleteConversation);
    await page.keyboard.press('Home');
    expect(await focusedText(page)).toBe(CHAT_TEXT.conversations);
    await page.keyboard.press('ArrowUp');
    expect(await focusedText(page)).toBe(CHAT_TEXT.deleteConversation);
    await page.keyboard.press('Escape');
    await page.locator(MENU).waitFor({ state: 'detached' });
    expect(await deepActive(page)).toBe('button.icon-button');
    expect(await page.locator(MENU_BUTTON).getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator(W.panel).isVisible()).toBe(true);
    // Tab leaves the menu closed behind it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.locator(MENU).waitFor({ state: 'detached' });
  });

  it('has no axe violations with the menu open, in light and dark', async () => {
    const { page } = await answered('/');
    for (const theme of ['light', 'dark']) {
      await page.evaluate(
        (t) => (window as unknown as { Askbox: { setTheme(t: string): void } }).Askbox.setTheme(t),
        theme,
      );
      await page.locator(MENU_BUTTON).click();
      await page.locator(MENU).waitFor();
      expect(await axeViolations(page), theme).toEqual([]);
      await page.keyboard.press('Escape');
    }
  });

  it('has no axe violations with the menu open in forced colours, and a rating that shows it is pressed', async () => {
    const { page } = await answered('/');
    await page.emulateMedia({ forcedColors: 'active' });
    await page.locator(MENU_BUTTON).click();
    await page.locator(MENU).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    const up = page.locator(`${W.bot} button[aria-pressed]`).first();
    await up.click();
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens inside the panel in RTL and on a phone, where a tap elsewhere closes it', async () => {
    for (const [path, options] of [
      ['/rtl.html', {}],
      ['/', { width: 375, height: 667, mobile: true }],
    ] as const) {
      const { page } = await answered(path, path === '/rtl.html' ? 'steps?' : 'Which plans?', options);
      if ('mobile' in options) await page.locator(MENU_BUTTON).tap();
      else await page.locator(MENU_BUTTON).click();
      await page.locator(MENU).waitFor();
      const [menu, panel] = await Promise.all([page.locator(MENU).boundingBox(), page.locator(W.panel).boundingBox()]);
      expect(menu!.x, path).toBeGreaterThanOrEqual(panel!.x);
      expect(menu!.x + menu!.width, path).toBeLessThanOrEqual(panel!.x + panel!.width);
      expect(await axeViolations(page), path).toEqual([]);
      if ('mobile' in options) await page.locator(W.input).tap();
      else await page.locator(W.input).click();
      await page.locator(MENU).waitFor({ state: 'detached' });
    }
  });

  it('downloads the conversation as Markdown, sources as links, on the strict-CSP page', async () => {
    const { page } = await answered();
    await page.locator(MENU_BUTTON).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(item(CHAT_TEXT.downloadConversation)).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toMatch(
      /^# .+\n\n\*\*You\*\* · .+\n\nWhich plans\?\n\n\*\*Assistant\*\* · .+\n\nWe have \*\*two\*\* plans\./,
    );
    expect(text).toMatch(/Sources:\n\n- \[?Pricing plans/);
    expect(await page.evaluate('window.cspViolations')).toEqual([]);
  });

  it('sends a rating through the proxy to onFeedback, and shows it again after a reload', async () => {
    const { page, requests } = await answered('/');
    const before = feedback.length;
    await page.locator(`${W.bot} button[aria-label="${CHAT_TEXT.rateUp}"]`).click();
    await expect.poll(() => feedback.length).toBe(before + 1);
    expect(feedback.at(-1)).toMatchObject({ rating: 'up', conversationId: (await conversation(page))!.id });
    expect(requests.filter((r) => r === 'POST /askbox/feedback')).toHaveLength(1);
    await page.reload();
    if (!(await page.locator(W.panel).isVisible())) await page.locator(W.launcher).click();
    const up = page.locator(`${W.bot} button[aria-label="${CHAT_TEXT.rateUp}"]`);
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('true');
  });

  it('deletes the conversation at the service after an in-panel confirmation', async () => {
    const { page } = await answered('/');
    const held = (await conversation(page))!;
    await page.locator(MENU_BUTTON).click();
    await page.locator(item(CHAT_TEXT.deleteConversation)).click();
    expect(await focusedText(page)).toBe(CHAT_TEXT.cancel);
    await page.locator(`askbox-widget button:text-is("${CHAT_TEXT.deleteAction}")`).click();
    await page.locator(W.bot).waitFor({ state: 'detached' });
    expect(await conversation(page)).toBeNull();
    // Gone upstream: deleting it again, with the grant that held it, finds nothing.
    const again = await page.evaluate(
      async ({ id, grant }) =>
        (await fetch(`/askbox/conversations/${id}`, { method: 'DELETE', headers: { 'x-askbox-grant': grant } })).status,
      held,
    );
    expect(again).toBe(404);
  });

  it('lays a refused delete out readably: each message the notice’s whole width, the buttons on a row of their own', async () => {
    for (const options of [{}, { width: 390, height: 844, mobile: true }]) {
      const { page } = await answered('/', 'Which plans?', options);
      // The proxy (or the service behind it) refuses.
      await page.route('**/askbox/conversations/*', (route) =>
        route.request().method() === 'DELETE'
          ? route.fulfill({ status: 502, contentType: 'application/json', body: '{"message":"Bad gateway"}' })
          : route.fallback(),
      );
      await page.locator(MENU_BUTTON).click();
      await page.locator(item(CHAT_TEXT.deleteConversation)).click();
      await page.locator(`askbox-widget button:text-is("${CHAT_TEXT.deleteAction}")`).click();
      await page.locator(`askbox-widget .confirm [role="alert"]`).waitFor();
      const layout = await page.locator('askbox-widget .confirm').evaluate((notice) => {
        const style = getComputedStyle(notice);
        const inner = notice.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const texts = [...notice.querySelectorAll('.notice__text')].map((text) => text.getBoundingClientRect());
        const buttons = [...notice.querySelectorAll('button')].map((button) => button.getBoundingClientRect());
        return {
          narrowest: Math.min(...texts.map((text) => text.width)) / inner,
          buttonsBelow: buttons.every((button) => texts.every((text) => button.top >= text.bottom)),
          textsStacked: texts[1]!.top >= texts[0]!.bottom,
        };
      });
      expect(layout.narrowest).toBeGreaterThan(0.95);
      expect(layout).toMatchObject({ buttonsBelow: true, textsStacked: true });
    }
  });

  it('emails a person from the script tag: a mailto: with a subject and the conversation, cut to 1,800, and handoff', async () => {
    const { page } = await e2e.open('/plain.html');
    // The demo page's tag, with `data-handoff-email` added.
    await page.route(`${e2e.url}/`, async (route) => {
      const body = (await (await route.fetch()).text()).replace(
        'data-proxy-url=',
        'data-handoff-email="help@example.com" data-proxy-url=',
      );
      await route.fulfill({ body, contentType: 'text/html' });
    });
    await page.goto(`${e2e.url}/`);
    await page.evaluate(() => {
      const seen = window as unknown as { opened: string[]; handoffs: unknown[] };
      seen.opened = [];
      seen.handoffs = [];
      // What the browser opens: the href of the link the visitor activates, read as the click passes the document.
      document.addEventListener(
        'click',
        (event) => {
          const link = event.composedPath().find((el): el is HTMLAnchorElement => el instanceof HTMLAnchorElement);
          if (link) seen.opened.push(link.href);
        },
        true,
      );
      (window as unknown as { Askbox: { on(t: string, f: (d: unknown) => void): void } }).Askbox.on('handoff', (d) =>
        seen.handoffs.push(d),
      );
    });
    const question = `Which plans? ${'Tell me everything about them, in detail. '.repeat(44)}`.trim();
    await ask(page, question);
    await expect.poll(() => page.locator(W.bot).textContent()).toContain('two');
    await page.locator(MENU_BUTTON).click();
    await page.locator(item(CHAT_TEXT.talkToPerson)).click();
    await expect.poll(() => page.evaluate('window.handoffs.length')).toBe(1);
    const [opened] = (await page.evaluate('window.opened')) as string[];
    const id = (await conversation(page))!.id;
    const [head, rawBody] = opened!.split('&body=');
    expect(head).toBe(`mailto:help@example.com?subject=${encodeURIComponent(`Northwind help (${id})`)}`);
    expect(rawBody!.length).toBeLessThanOrEqual(1800);
    expect(rawBody!.length).toBeGreaterThan(1700);
    const body = decodeURIComponent(rawBody!);
    // Cut at its start, the latest messages kept: the reply, whole.
    expect(body.startsWith('…')).toBe(true);
    expect(body).toMatch(/\*\*Assistant\*\* · .+\n\nWe have \*\*two\*\* plans\.\n/);
    expect(body).not.toContain('# Northwind help');
    expect(await page.evaluate('window.handoffs')).toEqual([{ conversationId: id, via: 'email' }]);
  });

  it('takes the visitor to a person: the contact page in a new tab, with the conversation id', async () => {
    const { page } = await e2e.open('/element.html');
    await page.context().route('https://help.example.com/**', (route) => route.fulfill({ body: 'Contact us' }));
    await page.evaluate(() => {
      const element = document.querySelector('askbox-chat')!;
      element.setAttribute('handoff-url', 'https://help.example.com/contact');
      element.setAttribute('handoff-param', 'ticket');
    });
    const input = page.locator('askbox-chat textarea');
    await input.fill('Which plans?');
    await input.press('Enter');
    await page.locator('askbox-chat .msg--bot:not(.msg--welcome) .sources').waitFor();
    await page.locator('askbox-chat button[aria-haspopup="menu"]').click();
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.locator(`askbox-chat [role="menuitem"]:text-is("${CHAT_TEXT.talkToPerson}")`).click(),
    ]);
    await tab.waitForLoadState();
    const id = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.includes(':conversation:'))
        .map((key) => (JSON.parse(localStorage.getItem(key)!) as { id: string }).id),
    );
    expect(tab.url()).toBe(`https://help.example.com/contact?ticket=${id[0]}`);
    // A new tab that cannot reach back into the page.
    expect(await tab.evaluate('window.opener')).toBeNull();
  });
});
