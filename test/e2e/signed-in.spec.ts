import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { axeViolations } from './axe';
import { ask, deepActive, startE2E, W } from './harness';
import { openList } from './proxy-walks';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  // Three visitors from one address: more conversations and list reads than one IP's limits let through.
  e2e = await startE2E({ replies: [{ match: 'plans', text: 'We have **two** plans.' }] }, { limits: false });
});
afterAll(() => e2e?.close());

const MENU_BUTTON = 'askbox-widget button[aria-haspopup="menu"]';
const item = (name: string) => `askbox-widget [role="menuitem"]:text-is("${name}")`;
const VIEW = 'askbox-widget .convos';
const ENTRIES = `${VIEW} li button`;

/** The keys Askbox holds in the page's storage areas. */
const askboxKeys = (page: Page) =>
  page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((area) => Object.keys(area).filter((key) => key.startsWith('askbox'))),
  );

/** Signs in as `user` (the demo server signs the tag) in a fresh browser context: another device. */
async function signIn(user: string) {
  const visit = await e2e.open(`/signed-in.html?user=${user}`);
  await visit.page.locator(W.launcher).click();
  await visit.page.locator(W.input).waitFor();
  return visit;
}

describe('signed-in visitors (Chromium, through the demo proxy and simulator)', () => {
  it('follow their conversations to another browser, and no one else sees them; reset() forgets them here', async () => {
    // A: alice asks.
    const a = await signIn('alice');
    await ask(a.page, 'Which plans?');
    await a.page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    expect(await deepActive(a.page)).toBe('textarea.input');
    // Nothing of hers is written to storage (the open panel's state is the tab's).
    expect((await askboxKeys(a.page)).filter((key) => !key.includes(':open:'))).toEqual([]);

    // B: alice on another device finds the conversation in her list, with its history.
    const b = await signIn('alice');
    await openList(b.page);
    expect(await b.page.locator(`${ENTRIES} span`).allTextContents()).toEqual(['Which plans?']);
    expect(await deepActive(b.page)).toBe('button.menu__item');
    // By keyboard: the entry has focus, and Enter opens it.
    await b.page.keyboard.press('Enter');
    await b.page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    expect(await b.page.locator(W.user).textContent()).toContain('Which plans?');
    expect(await deepActive(b.page)).toBe('textarea.input');
    expect(await axeViolations(b.page)).toEqual([]);

    // C: bob sees none of it.
    const c = await signIn('bob');
    await openList(c.page);
    expect(await c.page.locator(ENTRIES).count()).toBe(0);
    expect(await c.page.locator(`${VIEW} [role="status"]`).textContent()).toBe(CHAT_TEXT.noConversations);
    expect(await deepActive(c.page)).toBe('button.link-button');
    expect(await axeViolations(c.page)).toEqual([]);

    // B deletes it: gone from her list everywhere.
    await b.page.locator(MENU_BUTTON).click();
    await b.page.locator(item(CHAT_TEXT.deleteConversation)).click();
    expect(await deepActive(b.page)).toBe('button.link-button');
    await b.page.locator(`askbox-widget button:text-is("${CHAT_TEXT.deleteAction}")`).click();
    await b.page.locator(W.bot).waitFor({ state: 'detached' });
    expect(await deepActive(b.page)).toBe('textarea.input');
    await openList(a.page);
    expect(await a.page.locator(ENTRIES).count()).toBe(0);

    // A starts another conversation, which her list holds…
    await a.page.keyboard.press('Escape');
    await a.page.locator(`askbox-widget button[aria-label="Start a new conversation"]`).click();
    await ask(a.page, 'Which plans, again?');
    await a.page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    await openList(a.page);
    expect(await a.page.locator(ENTRIES).count()).toBe(1);
    expect(await deepActive(a.page)).toBe('button.menu__item');
    // …then logs out: the list is empty, no askbox key is left, and the widget is a fresh anonymous one.
    await a.page.keyboard.press('Escape');
    expect(await deepActive(a.page)).toBe('textarea.input');
    await a.page.evaluate(() => window.Askbox?.reset());
    await a.page.locator(W.panel).waitFor({ state: 'hidden' });
    expect(await deepActive(a.page)).toBe('button.launcher');
    expect(await askboxKeys(a.page)).toEqual([]);
    await a.page.locator(W.launcher).click();
    await a.page.locator(W.input).waitFor();
    expect(await deepActive(a.page)).toBe('textarea.input');
    expect(await a.page.locator(W.user).count()).toBe(0);
    await openList(a.page);
    expect(await a.page.locator(ENTRIES).count()).toBe(0);

    for (const visit of [a, b, c]) expect([visit.consoleErrors, visit.pageErrors]).toEqual([[], []]);
  });

  it('identify() signs a visitor in on the page; a forged hash is refused by the proxy', async () => {
    const a = await signIn('alice');
    await ask(a.page, 'Which plans?');
    await a.page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    // Another tab's tag, signed for bob by the server: its pair, handed to identify() as a single-page app would.
    const bob = await e2e.open('/signed-in.html?user=bob');
    const pair = await bob.page.evaluate(() => {
      const tag = document.querySelector<HTMLScriptElement>('script[data-user-id]')!;
      return { id: tag.dataset.userId!, hash: tag.dataset.userHash! };
    });
    await a.page.evaluate((user) => window.Askbox?.identify(user), pair);
    await a.page.locator(W.panel).waitFor({ state: 'hidden' });
    expect(await deepActive(a.page)).toBe('button.launcher');
    await a.page.locator(W.launcher).click();
    await openList(a.page);
    expect(await a.page.locator(ENTRIES).count()).toBe(0);
    // A hash signed with another secret: the proxy's refusal in its envelope.
    const forged = await a.page.evaluate(async (id) => {
      const response = await fetch('/askbox/conversations', {
        headers: { 'x-askbox-user': id, 'x-askbox-user-hash': 'f'.repeat(64) },
      });
      return [response.status, ((await response.json()) as { message: string }).message];
    }, pair.id);
    expect(forged).toEqual([403, 'Your sign-in could not be verified. Please sign in again.']);
  });

  it('a tag with a malformed pair logs one console error and runs anonymous', async () => {
    const visit = await e2e.open('/signed-in.html?user=al%20ice');
    await visit.page.locator(W.launcher).click();
    await ask(visit.page, 'Which plans?');
    await visit.page.locator(W.bot).filter({ hasText: 'We have two plans.' }).waitFor();
    expect(visit.consoleErrors).toEqual([
      expect.stringMatching(/^\[askbox\] The <script> tag's data-user-id and data-user-hash must both be given/),
    ]);
    // Anonymous: the conversation is this browser's.
    expect(await askboxKeys(visit.page)).toContain('askbox:v1:conversations:' + (await botKey(visit.page)));
  });
});

/** The widget's storage key: its bot and proxy. */
const botKey = (page: Page) =>
  page.evaluate(() => {
    const tag = document.querySelector<HTMLScriptElement>('script[data-bot-id]')!;
    return `${tag.dataset.botId}@${tag.dataset.proxyUrl}`;
  });
