import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { startUpstream } from '../contract/upstream';
import { freshBuild } from '../helpers/build';
import { startWordPress, upstreamMuPlugin } from '../helpers/wordpress';
import {
  activatePlugin,
  installWordPress,
  saveSettings,
  setPermalinks,
  type Permalinks,
} from '../helpers/wordpress-admin';
import { CHAT_TEXT } from '../../src/config/chat-text';
import { ask, clickInLog, launchChromium, W } from './harness';

/** The simulator's API key, as the site owner pastes it into Settings → Askbox. */
const KEY = 'wordpress-e2e-simulator-key-81f3c2';
const TITLE = 'Shop help desk';
/** A visitor's comment on a thumbs-down, markup included: the settings page must show it as text. */
const COMMENT = 'Too <b>vague</b> about delivery';
const HANDOFF = 'https://help.example/contact?from=chat&lang=en';
/** A stylesheet WordPress itself serves, as the custom stylesheet: the chat adopts its rules after its own. */
const STYLESHEET = '/wp-includes/css/dashicons.min.css';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let site: Awaited<ReturnType<typeof startWordPress>>;
let browser: Browser;
let admin: Page;

/**
 * Debian's WordPress over a MariaDB server of the test's own, under php -S: installed, given the plugin and set up
 * by its owner in Chromium, then a visitor chats on a post through the plugin's REST route, with pretty and with
 * "Plain" permalinks. One database and one site; the owner switches permalinks between the two visits.
 */
beforeAll(async () => {
  freshBuild('dist/wordpress/askbox/askbox.php');
  upstream = await startUpstream(KEY, { defaults: { delayMs: 20, chunkSize: 6 } });
  site = await startWordPress({ 'askbox-simulator.php': upstreamMuPlugin(upstream) });
  browser = await launchChromium();
  admin = await (await browser.newContext()).newPage();
  // WordPress's installer makes its tables and calls itself: slow on a busy machine, not stuck.
  admin.setDefaultTimeout(60_000);
}, 60_000);

beforeEach(() => {
  onTestFailed(() => console.error(`WordPress's php -S, last lines:\n${site?.logTail()}`));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await upstream?.close();
});

/** A proxy call as the widget made it: method, path, and the REST route of plain permalinks; tokens masked. */
function proxyCall(method: string, url: URL): string | undefined {
  const route = url.searchParams.get('rest_route');
  const call = `${method} ${url.pathname}${route === null ? '' : `?rest_route=${route}`}`;
  return call.includes('/askbox/v1/') ? call.replace(/stream\/[^/&]+/, 'stream/:token') : undefined;
}

/** PHP that hands the plugin's onFeedback one rating (`rating` is PHP: the rating and any more keys) of one reply. */
function storeRating(rating: string): string {
  return `askbox_feedback_store(['conversationId' => 'conv2', 'messageId' => 'reply2', 'rating' => ${rating}, 'visitorId' => 'v2']);`;
}

/**
 * A visitor (a fresh browser) on the first post, opened from the home page: the page, its HTML, its errors and its
 * calls to the plugin's proxy as they happen.
 */
async function onFirstPost() {
  const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const calls: string[] = [];
  page.on('request', (request) => {
    const call = proxyCall(request.method(), new URL(request.url()));
    if (call) calls.push(call);
  });
  await page.goto(site.url);
  await page.getByRole('link', { name: 'Hello world!' }).first().click();
  await page.waitForLoadState();
  return { page, pageErrors, calls, html: await page.content() };
}

/**
 * A visitor (a fresh browser) opens the first post from the home page and asks; with a `comment`, rates the reply
 * thumbs-down with it. Answers what it saw.
 */
async function visitorChats(comment?: string) {
  const { page, pageErrors, calls, html } = await onFirstPost();
  await ask(page, 'How long does delivery take?');
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        const text = (await page.locator(W.streaming).allTextContents()).join('');
        if (text) seen.add(text);
        return page.locator(W.bot).count();
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(1);
  const answer = (await page.locator(W.bot).textContent()) ?? '';
  const panel = (await page.locator(W.panel).textContent()) ?? '';
  // The custom stylesheet's rules, adopted after the widget's own (then the empty sheet of `css`, not set here).
  const siteRules = () =>
    page.evaluate(
      () => document.querySelector('askbox-widget')?.shadowRoot?.adoptedStyleSheets.at(-2)?.cssRules.length ?? 0,
    );
  await expect.poll(siteRules).toBeGreaterThan(10);
  // Back on the post later: the panel reopens with the conversation, read back through the proxy's message list.
  await page.reload();
  await page.locator(W.panel).waitFor();
  await expect.poll(() => page.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
  // Read before rating it: a comment sent shows its thanks under the reply for a moment.
  const restored = (await page.locator(W.bot).textContent()) ?? '';
  const rated: number[] = [];
  if (comment !== undefined) {
    page.on('response', (response) => {
      if (proxyCall(response.request().method(), new URL(response.url()))?.endsWith('/feedback'))
        rated.push(response.status());
    });
    await clickInLog(page, page.locator(`${W.bot} button[aria-label="${CHAT_TEXT.rateDown}"]`));
    await page.getByLabel(CHAT_TEXT.comment).fill(comment);
    await page.locator(`askbox-widget .comment button[type="submit"]`).click();
    // The thumbs-down is sent once, with the comment.
    await expect.poll(() => rated, { timeout: 10_000 }).toEqual([200]);
  }
  const result = {
    postUrl: page.url(),
    html,
    panel,
    answer,
    restored,
    streamedParts: seen.size,
    calls,
    pageErrors,
  };
  await page.context().close();
  return result;
}

/**
 * A visitor (a fresh browser) asks on the first post, then deletes the conversation from the widget's menu. Answers
 * the conversation's id, the status the proxy's DELETE got through WordPress, and the status the service then
 * gives the conversation.
 */
async function visitorDeletes() {
  const { page } = await onFirstPost();
  const created: string[] = [];
  const deleted: number[] = [];
  page.on('response', async (response) => {
    const call = proxyCall(response.request().method(), new URL(response.url()));
    if (call?.endsWith('/conversations')) created.push(((await response.json()) as { data: { id: string } }).data.id);
    if (call?.startsWith('DELETE ')) deleted.push(response.status());
  });
  await ask(page, 'How long does delivery take?');
  await expect.poll(() => page.locator(W.bot).count(), { timeout: 20_000 }).toBe(1);
  await page.locator('askbox-widget button[aria-haspopup="menu"]').click();
  await page.locator(`askbox-widget [role="menuitem"]:text-is("${CHAT_TEXT.deleteConversation}")`).click();
  await page.locator(`askbox-widget button:text-is("${CHAT_TEXT.deleteAction}")`).click();
  await page.locator(W.bot).waitFor({ state: 'detached' });
  await expect.poll(() => deleted, { timeout: 10_000 }).toHaveLength(1);
  const panel = (await page.locator('askbox-widget').textContent()) ?? '';
  await page.context().close();
  const id = created[0]!;
  // Asked of the simulator directly, with the key: is the conversation still there?
  const atService = await fetch(`${upstream.url}/conversations/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
  return { id, deleted, atService: atService.status, failedNotice: panel.includes(CHAT_TEXT.deleteFailed) };
}

/** The settings page's consent and greeting (issue 35, items 3 and 5), as a site owner fills them. */
const CONSENT = 'I agree that my questions are processed as the [privacy policy](https://example.com/privacy) says.';
const GREETING = 'Questions about delivery? Ask me.';

/**
 * A visitor on a post of a site whose settings set a consent text and a greeting: the greeting beside the launcher
 * after its second; its words open the chat, with the greeting first and the consent gate before anything is sent;
 * Accept, then a question answered through the plugin's proxy.
 */
async function visitorConsents() {
  const { page, calls, html } = await onFirstPost();
  await page.locator('askbox-widget .greeting__text').click();
  await page.locator('askbox-widget .consent__accept').waitFor();
  const gated = {
    greeting: await page.locator(W.welcome).textContent(),
    link: await page.locator('askbox-widget .consent a').getAttribute('href'),
    callsBefore: [...calls],
  };
  await page.locator('askbox-widget .consent__accept').click();
  await ask(page, 'How long does delivery take?');
  await expect.poll(() => page.locator(W.bot).count(), { timeout: 20_000 }).toBe(1);
  const answer = (await page.locator(W.bot).textContent()) ?? '';
  await page.context().close();
  return { html, gated, answer, calls };
}

describe('the WordPress plugin on Debian’s WordPress with MariaDB, in Chromium', () => {
  it('is set up as a site owner would: install WordPress, activate the plugin, fill Settings → Askbox', async () => {
    await installWordPress(admin, site.url);
    await activatePlugin(admin, site.url, 'Askbox AI chat');
    await saveSettings(admin, site.url, 'Askbox', {
      'Cody API key': KEY,
      'Bot id': DEMO_BOT_ID,
      Title: TITLE,
      'Accent colour (#rrggbb)': '#0b57d0',
      Position: 'bottom-left',
      'Hide on': '/checkout/*, /cart',
      'Talk to a person: URL': HANDOFF,
      'Custom stylesheet URL': STYLESHEET,
    });
    // The key is kept server-side: the form shows only that one is saved.
    expect(await admin.getByLabel('Cody API key').inputValue()).toBe('');
    expect(await admin.getByLabel('Bot id').inputValue()).toBe(DEMO_BOT_ID);
  }, 180_000);

  const walks: [Permalinks, RegExp, string][] = [
    ['Post name', /\/hello-world\/$/, '/wp-json/askbox/v1/'],
    ['Plain', /\/\?p=\d+$/, '/index.php?rest_route=/askbox/v1/'],
  ];
  it.each(walks)(
    'chats as a visitor on a post with "%s" permalinks',
    async (permalinks, postUrl, base) => {
      await setPermalinks(admin, site.url, permalinks);
      const visit = await visitorChats(permalinks === 'Post name' ? COMMENT : undefined);
      expect(visit.postUrl).toMatch(postUrl);
      expect(visit.pageErrors).toEqual([]);
      expect(visit.panel).toContain(TITLE);
      expect(visit.answer).toMatch(/deliver|ship/i);
      expect(visit.streamedParts).toBeGreaterThanOrEqual(2);
      expect(visit.restored).toBe(visit.answer);
      expect(visit.calls).toEqual(
        expect.arrayContaining([
          `POST ${base}conversations`,
          `POST ${base}messages/stream`,
          `GET ${base}stream/:token`,
          `GET ${base}messages`,
        ]),
      );
      expect(visit.html).not.toContain(KEY);
      // The settings page's page rules, "Talk to a person" and stylesheet, on the widget's tag.
      expect(visit.html).toContain('data-hide-on="/checkout/* /cart"');
      expect(visit.html).toContain(`data-handoff-url="${HANDOFF.replace('&', '&amp;')}"`);
      expect(visit.html).toContain(`data-stylesheet="${STYLESHEET}"`);
      // The upstream got the key from the server, and only on its API host.
      expect(upstream.records.filter((r) => r.host === 'api').every((r) => r.authorization === `Bearer ${KEY}`)).toBe(
        true,
      );
      expect(upstream.records.filter((r) => r.host !== 'api').some((r) => r.authorization !== null)).toBe(false);
      expect(site.errors()).toEqual([]);
    },
    60_000,
  );

  it('lists the visitor\u2019s thumbs-down with its comment on Settings \u2192 Askbox, as text', async () => {
    await admin.goto(`${site.url}/wp-admin/options-general.php?page=askbox`);
    const latest = admin.locator('table.askbox-feedback tbody tr').first();
    expect(await latest.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      'Not helpful',
      COMMENT,
      expect.stringMatching(/^[\w-]+$/),
      expect.stringMatching(/^[\w-]+$/),
      expect.stringMatching(/^[0-9a-f]{12}$/),
    ]);
    // Shown as text, not markup.
    expect(await admin.locator('table.askbox-feedback b').count()).toBe(0);
    // One rating per visitor and reply: the thumbs-down was sent once, with its comment, and is one row.
    const [conversation, reply] = (await latest.locator('td').allTextContents()).slice(3, 5);
    const rows = `global $wpdb; echo $wpdb->get_var($wpdb->prepare("SELECT COUNT(*) FROM wp_askbox_feedback WHERE conversation_id = %s AND message_id = %s", ${JSON.stringify(conversation)}, ${JSON.stringify(reply)}));`;
    expect(site.wpPhp(rows)).toBe('1');
    // A rating sent again (a Retry, or another tab) is one row too: the same rating without a comment keeps the
    // comment; a changed one drops it.
    const comment = `global $wpdb; echo json_encode($wpdb->get_col("SELECT comment FROM wp_askbox_feedback WHERE conversation_id = 'conv2'"));`;
    expect(
      JSON.parse(site.wpPhp(`${storeRating("'down', 'comment' => 'Late'")} ${storeRating("'down'")} ${comment}`)),
    ).toEqual(['Late']);
    expect(JSON.parse(site.wpPhp(`${storeRating("'up'")} ${comment}`))).toEqual([null]);
    expect(site.errors()).toEqual([]);
  }, 60_000);

  it.each(walks)(
    'deletes a conversation from the widget’s menu with "%s" permalinks, gone at the service',
    async (permalinks) => {
      await setPermalinks(admin, site.url, permalinks);
      const visit = await visitorDeletes();
      // Not WordPress's own 404 (rest_no_route): the plugin registers every method of the contract's routes.
      expect(visit.deleted).toEqual([200]);
      expect(visit.failedNotice).toBe(false);
      expect(visit.atService).toBe(404);
      expect(upstream.records.some((r) => r.method === 'DELETE' && r.path.endsWith(`/conversations/${visit.id}`))).toBe(
        true,
      );
      expect(site.errors()).toEqual([]);
    },
    60_000,
  );

  it('shows the settings page’s greeting and consent: nothing sent before Accept, then an answer', async () => {
    await saveSettings(admin, site.url, 'Askbox', {
      'Consent before the first message': CONSENT,
      Greeting: GREETING,
      'Greeting delay (seconds)': '1',
    });
    const visit = await visitorConsents();
    expect(visit.html).toContain('data-consent="I agree that my questions are processed as the [privacy policy]');
    expect(visit.html).toContain(`data-greeting="${GREETING}"`);
    expect(visit.html).toContain('data-greeting-delay="1"');
    expect(visit.gated).toEqual({ greeting: GREETING, link: 'https://example.com/privacy', callsBefore: [] });
    expect(visit.answer).toMatch(/deliver|ship/i);
    expect(visit.calls.filter((call) => /^POST \S*askbox\/v1\/conversations$/.test(call))).toHaveLength(1);
    await saveSettings(admin, site.url, 'Askbox', {
      'Consent before the first message': '',
      Greeting: '',
      'Greeting delay (seconds)': '',
    });
    expect(site.errors()).toEqual([]);
  }, 60_000);

  it('makes its table again after an update in place, and drops it and its options on uninstall', () => {
    const table = `global $wpdb; echo json_encode([$wpdb->get_var("SHOW TABLES LIKE 'wp_askbox_feedback'"), get_option('askbox_db_version'), get_option('askbox_settings') !== false]);`;
    // An update in place runs no activation: as after updating from a version without the table, the next load of
    // WordPress (here, the next PHP run) makes it.
    const dropped = `global $wpdb; $wpdb->query('DROP TABLE wp_askbox_feedback'); update_option('askbox_db_version', '0'); ${table}`;
    expect(JSON.parse(site.wpPhp(dropped))).toEqual([null, '0', true]);
    expect(JSON.parse(site.wpPhp(table))).toEqual(['wp_askbox_feedback', '2', true]);
    // From version 1, whose table kept a thumbs-down and its comment as two rows: the newer stays, under the key.
    const rating = `('2026-01-01 00:00:00', 'conv1', 'reply1', 'down', %s, '${'a'.repeat(64)}')`;
    const version1 = `global $wpdb; $wpdb->query('ALTER TABLE wp_askbox_feedback DROP INDEX one_rating'); $wpdb->query("INSERT INTO wp_askbox_feedback (created_at, conversation_id, message_id, rating, comment, visitor_hash) VALUES ${rating.replace('%s', 'NULL')}, ${rating.replace('%s', "'Wrong'")}"); update_option('askbox_db_version', '1');`;
    site.wpPhp(version1);
    const kept = `global $wpdb; echo json_encode([$wpdb->get_col("SELECT comment FROM wp_askbox_feedback WHERE conversation_id = 'conv1'"), $wpdb->get_var("SHOW INDEX FROM wp_askbox_feedback WHERE Key_name = 'one_rating'") !== null]);`;
    expect(JSON.parse(site.wpPhp(kept))).toEqual([['Wrong'], true]);
    // Plugins → Delete, as WordPress runs it (deletion is off on this site: DISALLOW_FILE_MODS).
    site.wpPhp(
      `require_once ABSPATH . 'wp-admin/includes/plugin.php'; deactivate_plugins('askbox/askbox.php'); uninstall_plugin('askbox/askbox.php');`,
    );
    expect(JSON.parse(site.wpPhp(table))).toEqual([null, false, false]);
    expect(site.errors()).toEqual([]);
  }, 60_000);
});
