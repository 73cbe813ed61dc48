import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { IDENTITY, REFUSALS } from '../../src/protocol/contract';
import { startUpstream } from '../contract/upstream';
import { freshBuild } from '../helpers/build';
import { startWordPress, upstreamMuPlugin } from '../helpers/wordpress';
import { activatePlugin, installWordPress, logIn, saveSettings } from '../helpers/wordpress-admin';
import { ask, launchChromium, W } from './harness';

/** The simulator's API key, as the site owner pastes it into Settings → Askbox. */
const KEY = 'wordpress-identity-simulator-key-5d1e';
const ADA = { login: 'ada', password: 'Ada-reads-4412', email: 'ada@example.com' };
const BOB = { login: 'bob', password: 'Bob-reads-9017', email: 'bob@example.com' };
const QUESTION = 'How long does delivery take?';
/** The widget's list of conversations, from its menu's first entry. */
const LIST = 'askbox-widget .convos';
const ENTRIES = `${LIST} li button`;

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let site: Awaited<ReturnType<typeof startWordPress>>;
let browser: Browser;
/** WordPress user ids by login. */
const ids: Record<string, number> = {};

/**
 * Signed-in visitors on Debian's WordPress with MariaDB, in Chromium: a logged-in user chats in one browser, then
 * finds the conversation, with its history, in another browser where they are logged in too; another user does not.
 */
beforeAll(async () => {
  freshBuild('dist/wordpress/askbox/identity.php');
  upstream = await startUpstream(KEY, { defaults: { delayMs: 20, chunkSize: 6 } });
  site = await startWordPress({ 'askbox-simulator.php': upstreamMuPlugin(upstream) });
  browser = await launchChromium();
}, 60_000);

beforeEach(() => {
  onTestFailed(() => console.error(`WordPress's php -S, last lines:\n${site?.logTail()}`));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await upstream?.close();
});

/** A fresh browser on the first post, logged in as `user` (none: a logged-out visitor). */
async function onPost(user?: { login: string; password: string }) {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
  page.setDefaultTimeout(20_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (user) await logIn(page, site.url, user);
  await page.goto(site.url);
  await page.getByRole('link', { name: 'Hello world!' }).first().click();
  await page.waitForLoadState();
  return { page, pageErrors, html: await page.content() };
}

/** Opens the panel, then the list of conversations from the menu's first entry. */
async function openList(page: Page) {
  if (!(await page.locator(W.panel).isVisible())) await page.locator(W.launcher).click();
  await page.locator('askbox-widget button[aria-haspopup="menu"]').click();
  await page.locator('askbox-widget [role="menuitem"]').first().click();
  await page.locator(LIST).waitFor();
}

/** The identity headers the site's page gives a user's widget, made with the secret the plugin kept. */
function signedIn(user: string) {
  const secret = site.wpPhp(`echo askbox_identity_secret();`);
  const id = `wp-${ids[user]!}`;
  return { [IDENTITY.userHeader]: id, [IDENTITY.hashHeader]: createHmac('sha256', secret).update(id).digest('hex') };
}

describe('signed-in visitors on WordPress (Chromium, MariaDB)', () => {
  it('is set up: WordPress installed, the plugin active and configured, two users', async () => {
    const admin = await (await browser.newContext()).newPage();
    admin.setDefaultTimeout(60_000);
    await installWordPress(admin, site.url);
    await activatePlugin(admin, site.url, 'Askbox AI chat');
    await saveSettings(admin, site.url, 'Askbox', { 'Cody API key': KEY, 'Bot id': DEMO_BOT_ID });
    await admin.context().close();
    for (const user of [ADA, BOB]) {
      ids[user.login] = Number(
        site.wpPhp(`echo wp_create_user('${user.login}', '${user.password}', '${user.email}');`),
      );
    }
    expect(ids.ada).toBeGreaterThan(1);
    expect(site.wpPhp(`global $wpdb; echo $wpdb->get_var("SHOW TABLES LIKE 'wp_askbox_conversations'");`)).toBe(
      'wp_askbox_conversations',
    );
  }, 180_000);

  it('signs a logged-in user into the widget, never printing the secret; a logged-out visitor stays anonymous', async () => {
    const ada = await onPost(ADA);
    const headers = signedIn('ada');
    expect(ada.html).toContain(`data-user-id="wp-${ids.ada!}"`);
    expect(ada.html).toContain(`data-user-hash="${headers[IDENTITY.hashHeader]!}"`);
    expect(ada.html).not.toContain(site.wpPhp(`echo askbox_identity_secret();`));
    await ada.page.context().close();
    const visitor = await onPost();
    expect(visitor.html).toContain('data-bot-id=');
    expect(visitor.html).not.toContain('data-user-');
    await visitor.page.context().close();
  }, 60_000);

  it('finds a conversation started in one browser, with its history, in another browser of the same user', async () => {
    const first = await onPost(ADA);
    const sent: Record<string, string>[] = [];
    first.page.on('request', (request) => {
      // The reply stream is the redirect of POST messages/stream, which the browser follows with the same headers
      // (the proxy refuses a person's stream without them); Playwright reports only the first request's.
      if (request.url().includes('askbox/v1/') && !request.redirectedFrom()) sent.push(request.headers());
    });
    await ask(first.page, QUESTION);
    await expect.poll(() => first.page.locator(W.bot).count(), { timeout: 20_000 }).toBe(1);
    const answer = (await first.page.locator(W.bot).textContent()) ?? '';
    expect(answer).toMatch(/deliver|ship/i);
    // The widget sent who she is on every call to the proxy.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((headers) => headers[IDENTITY.userHeader] === `wp-${ids.ada!}`)).toBe(true);
    expect(first.pageErrors).toEqual([]);
    await first.page.context().close();

    const second = await onPost(ADA);
    await openList(second.page);
    await expect.poll(() => second.page.locator(ENTRIES).count(), { timeout: 10_000 }).toBe(1);
    // Titled with her question, which this browser never saw: the PHP proxy kept the name the widget gave.
    expect(await second.page.locator(`${ENTRIES} span`).allTextContents()).toEqual([QUESTION]);
    await second.page.locator(ENTRIES).first().click();
    await second.page
      .locator(W.bot)
      .filter({ hasText: answer.slice(0, 20) })
      .waitFor();
    expect(await second.page.locator(W.user).textContent()).toContain(QUESTION);
    expect(second.pageErrors).toEqual([]);
    await second.page.context().close();

    const other = await onPost(BOB);
    await openList(other.page);
    expect(await other.page.locator(ENTRIES).count()).toBe(0);
    expect(other.pageErrors).toEqual([]);
    await other.page.context().close();
    expect(site.errors()).toEqual([]);
  }, 120_000);

  it('keeps the newest conversationsMax a person in its table, and fails closed when the table is gone', async () => {
    const person = site.wpPhp(`echo askbox_person_key(askbox_identity_secret(), 'wp-${ids.bob!}');`);
    const add = Array.from(
      { length: IDENTITY.conversationsMax + 2 },
      (_, i) =>
        `$people->add('${person}', ['id' => 'conv${i}', 'bot_id' => 'b', 'name' => 'n${i}', 'created_at' => '2026-01-01T00:00:00.000Z']);`,
    ).join(' ');
    const listed = site.wpPhp(
      `$people = new AskboxWordPressPeople(); ${add} $people->add('${person}', ['id' => 'conv5', 'bot_id' => 'b', 'name' => 'again', 'created_at' => 't']); echo json_encode(array_column($people->list('${person}'), 'id'));`,
    );
    expect(JSON.parse(listed)).toEqual(
      Array.from({ length: IDENTITY.conversationsMax }, (_, i) => `conv${IDENTITY.conversationsMax + 1 - i}`),
    );
    // Through the proxy: Bob's list, then the table made unusable (a lost table, a full disk), then back.
    const list = () => fetch(`${site.url}/wp-json/askbox/v1/conversations`, { headers: signedIn('bob') });
    expect((await (await list()).json()).data).toHaveLength(IDENTITY.conversationsMax);
    site.wpPhp(`global $wpdb; $wpdb->query('RENAME TABLE wp_askbox_conversations TO wp_askbox_conversations_away');`);
    const refused = await list();
    site.wpPhp(`global $wpdb; $wpdb->query('RENAME TABLE wp_askbox_conversations_away TO wp_askbox_conversations');`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ message: REFUSALS.busy.message });
    const logged = site.errors().filter((line) => line.includes('AskboxStoreError'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('"event":"people"');
    expect(logged[0]).toContain('AskboxStoreError: The people store failed: the conversations table cannot be read');
    // A deleted user's list goes with them.
    site.wpPhp(`require_once ABSPATH . 'wp-admin/includes/user.php'; wp_delete_user(${ids.bob!});`);
    expect(
      site.wpPhp(
        `global $wpdb; echo $wpdb->get_var("SELECT COUNT(*) FROM wp_askbox_conversations WHERE person = '${person}'");`,
      ),
    ).toBe('0');
  }, 60_000);
});
