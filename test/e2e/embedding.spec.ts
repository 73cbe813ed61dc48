import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID, OTHER_BOT_ID } from '../../demo/simulator/index';
import { axeViolations } from './axe';
import { animationFrames, ask, deepActive, settle, startE2E, W } from './harness';
import { LEAK_COUNTER } from './leaks';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E(
    {
      replies: [
        { match: 'returns', text: 'Returns are free for 30 days.' },
        { match: 'ship', text: 'We ship to 40 countries.' },
      ],
    },
    { botIds: [DEMO_BOT_ID, OTHER_BOT_ID] },
  );
});
afterAll(() => e2e?.close());

/** Adds a script tag for the widget to the page, as a tag manager would. */
function addTag(page: Page, attributes: Record<string, string>) {
  return page.evaluate(`new Promise((ran) => {
    const script = document.createElement('script');
    script.src = '/askbox.js?' + Math.random();
    Object.assign(script.dataset, ${JSON.stringify(attributes)});
    // A script's load event comes after it has run.
    script.onload = script.onerror = ran;
    document.body.append(script);
  })`);
}

const storedKeys = (page: Page) =>
  page.evaluate('[...Object.keys(localStorage), ...Object.keys(sessionStorage)].sort()') as Promise<string[]>;

describe('inline mode', () => {
  it('fills a container that appears after the script, with no launcher, and chats without taking focus', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/inline.html');
    const panel = page.locator('#help-chat askbox-widget .panel');
    await panel.waitFor();
    expect(await page.locator(W.launcher).count()).toBe(0);
    expect(await panel.boundingBox()).toEqual(await page.locator('#help-chat').boundingBox());
    expect(await page.getByRole('region', { name: 'Help centre assistant' }).count()).toBe(1);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await panel.locator('button[aria-label="Close"]').count()).toBe(0);
    expect(await deepActive(page)).toBe('body');

    await page.locator(W.input).fill('How do returns work?');
    await page.keyboard.press('Enter');
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await panel.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });

  it('names a container missing once the page has loaded, once, and appears when one is added', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.evaluate('window.Askbox.destroy()');
    await addTag(page, { botId: DEMO_BOT_ID, proxyUrl: '/askbox', mode: 'inline', target: '#later' });
    await expect
      .poll(() => consoleErrors)
      .toEqual([expect.stringContaining('data-target "#later" matches no element')]);
    await page.evaluate(`(() => {
      const box = document.createElement('div');
      box.id = 'later';
      box.style.height = '500px';
      document.body.append(box);
    })()`);
    await page.locator('#later askbox-widget .panel').waitFor();
    expect(consoleErrors).toHaveLength(1);
  });

  it('refuses an inline tag without a target, and a target that is no CSS selector, in one clear error each', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.evaluate('window.Askbox.destroy()');
    await addTag(page, { botId: DEMO_BOT_ID, proxyUrl: '/askbox', mode: 'inline' });
    await addTag(page, { botId: DEMO_BOT_ID, proxyUrl: '/askbox', mode: 'inline', target: '#a[' });
    await expect.poll(() => consoleErrors.length).toBe(2);
    // The two tags run in the order they arrive.
    expect(consoleErrors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('data-target is required in inline mode'),
        expect.stringContaining('data-target "#a[" is not a CSS selector'),
      ]),
    );
    expect(await page.locator('askbox-widget').count()).toBe(0);
  });
});

describe('the <askbox-chat> element', () => {
  it('runs from the HTML, re-configures on an attribute change, and is destroyed with the element', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/element.html');
    const inElement = (selector: string) => page.locator(`askbox-chat ${selector}`);
    await inElement('.panel').waitFor();
    expect(await inElement('.title').textContent()).toBe('Element chat');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator(W.input).fill('What do you ship?');
    await page.keyboard.press('Enter');
    await page.locator(W.bot, { hasText: 'We ship to 40 countries' }).waitFor();

    await page.locator('#rename').click();
    await expect.poll(() => inElement('.title').textContent()).toMatch(/^Renamed at/);
    // The same widget, re-configured: its conversation carries on.
    await page.locator(W.bot, { hasText: 'We ship to 40 countries' }).waitFor();
    expect(await page.locator('askbox-widget').count()).toBe(1);

    await page.locator('#mode').click();
    await inElement('.launcher').waitFor();
    expect(await inElement('.panel').count()).toBe(0);

    await page.locator('#remove').click();
    await expect.poll(() => page.locator('askbox-widget').count()).toBe(0);
    expect(await page.evaluate("'Askbox' in window")).toBe(false);
    await page.locator('#add').click();
    await inElement('.launcher').waitFor();
    expect(await page.evaluate('typeof window.Askbox.open')).toBe('function');
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });

  it('mounts an element added later, and names its attribute errors without data-', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.evaluate(`(() => {
      const bad = document.createElement('askbox-chat');
      bad.setAttribute('proxy-url', '/askbox');
      document.body.append(bad);
      const chat = document.createElement('askbox-chat');
      chat.setAttribute('bot-id', '${DEMO_BOT_ID}');
      chat.setAttribute('proxy-url', '/askbox');
      chat.setAttribute('instance', 'later');
      chat.setAttribute('position', 'bottom-left');
      document.body.append(chat);
    })()`);
    await page.locator('askbox-chat askbox-widget .launcher').waitFor();
    expect(await page.locator('askbox-widget').count()).toBe(2);
    expect(consoleErrors).toEqual([expect.stringContaining('<askbox-chat> element is misconfigured:\n  - bot-id')]);
    expect(await page.evaluate("window.Askbox.get('later') !== window.Askbox.get('" + DEMO_BOT_ID + "')")).toBe(true);
  });
});

describe('several widgets on one page', () => {
  it('keeps each its own conversation, open state and events; Askbox is the first, get() the others', async () => {
    const { page, consoleErrors } = await e2e.open('/two.html');
    await expect.poll(() => page.locator(W.launcher).count()).toBe(2);
    await page.evaluate(`window.heard = [];
      window.Askbox.on('reply', () => heard.push('support'));
      window.Askbox.get('sales').on('reply', () => heard.push('sales'));`);
    await page.locator('#open-sales').click();
    const sales = page.locator('askbox-widget .askbox--bottom-left');
    const support = page.locator('askbox-widget .askbox--bottom-right');
    await sales.locator('.panel').waitFor();
    expect(await support.locator('.panel').count()).toBe(0);
    await sales.locator('textarea').fill('What do you ship?');
    await sales.locator('textarea').press('Enter');
    await sales.locator('.msg--bot', { hasText: 'We ship' }).waitFor();
    await expect.poll(() => page.evaluate('window.heard')).toEqual(['sales']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await storedKeys(page)).toEqual([
      `askbox:v1:conversation:${DEMO_BOT_ID}@/askbox#sales`,
      `askbox:v1:conversations:${DEMO_BOT_ID}@/askbox#sales`,
      `askbox:v1:open:${DEMO_BOT_ID}@/askbox#sales`,
    ]);

    await page.reload();
    await expect.poll(() => page.locator(W.launcher).count()).toBe(2);
    await sales.locator('.msg--bot', { hasText: 'We ship' }).waitFor();
    // The sales panel, reopened at load, covers the page's buttons.
    await page.evaluate('window.Askbox.open()');
    await support.locator(W.welcome.replace('askbox-widget ', '')).waitFor();
    expect(await support.locator('.msg--user').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });

  it('mounts a second bot from a second copy of the script, and one widget for the same tag twice', async () => {
    const { page, consoleErrors } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await addTag(page, { botId: DEMO_BOT_ID, proxyUrl: '/askbox', theme: 'light' });
    await addTag(page, { botId: OTHER_BOT_ID, proxyUrl: '/askbox', position: 'bottom-left' });
    await expect.poll(() => page.locator(W.launcher).count()).toBe(2);
    // Both tags have run (addTag waits for their load events): what they draw is drawn two frames later.
    await animationFrames(page);
    expect(await page.locator(W.launcher).count()).toBe(2);
    await page.evaluate(`window.Askbox.get('${OTHER_BOT_ID}').send('What do you ship?')`);
    await page.locator('.askbox--bottom-left .msg--bot', { hasText: 'We ship' }).waitFor();
    expect(await page.locator('askbox-widget .askbox--bottom-right .panel').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });
});

describe('single-page apps', () => {
  it('keeps the conversation and the open panel through a <body> swap and a body-content swap', async () => {
    const { page, consoleErrors, pageErrors } = await e2e.open('/spa.html');
    await ask(page, 'How do returns work?');
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    await page.locator(W.input).fill('unsent draft');
    for (const [swap, heading] of [
      ['body', 'Page 2'],
      ['content', 'Page 3'],
    ] as const) {
      await page.locator(`[data-swap="${swap}"]`).click();
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
      expect(await page.locator('body > askbox-widget').count()).toBe(1);
      expect(await page.locator(W.input).inputValue()).toBe('unsent draft');
    }
    expect([consoleErrors, pageErrors]).toEqual([[], []]);
  });
});

describe('reset() and destroy()', () => {
  it('reset() forgets the conversation here and in storage, so the next visitor sees none of it', async () => {
    const { page, requests } = await e2e.open('/plain.html');
    await ask(page, 'How do returns work?');
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    // Rated, so storage holds the conversation, the list of conversations and the ratings: all three must go.
    await page.locator(`${W.bot} .rate--up`).click();
    await expect
      .poll(() => storedKeys(page))
      .toEqual(
        ['conversation', 'conversations', 'open', 'ratings'].map((kind) => `askbox:v1:${kind}:${DEMO_BOT_ID}@/askbox`),
      );
    await page.evaluate("window.closes = 0; window.Askbox.on('close', () => closes++); window.Askbox.reset()");
    await page.locator(W.panel).waitFor({ state: 'detached' });
    expect(await page.evaluate('window.closes')).toBe(1);
    expect(await storedKeys(page)).toEqual([]);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    expect(await page.locator(W.user).count()).toBe(0);
    // The frame's and the panel's stylesheets are not added a second time.
    expect(await page.evaluate("document.querySelector('askbox-widget').shadowRoot.adoptedStyleSheets.length")).toBe(3);
    // Opened again since the reset, the panel reopens at load: with nothing of the earlier conversation.
    const sinceReset = requests.length;
    await page.reload();
    await page.locator(W.welcome).waitFor();
    // The welcome is drawn with what is stored; a stored conversation would also be fetched, and nothing is.
    await settle(page);
    expect(requests.slice(sinceReset).filter((r) => r.startsWith('GET /askbox/messages'))).toEqual([]);
    expect(await page.locator(W.user).count()).toBe(0);
  });

  it('destroy() leaves no element, listener, timer, observer, stylesheet or global behind', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.addInitScript({ content: LEAK_COUNTER });
    await page.reload();
    await ask(page, 'How do returns work?');
    await page.locator(W.bot, { hasText: 'Returns are free' }).waitFor();
    await page.locator(W.launcher).click();
    await page.locator(W.launcher).click();
    await page.evaluate("window.Askbox.setTheme('dark'); window.Askbox.destroy()");
    // Work already queued (a render, a debounced frame) finishes; anything still pending after that is a leak.
    await expect
      .poll(() => page.evaluate('window.leaks()'), { timeout: 5_000 })
      .toEqual({
        elements: 0,
        listeners: [],
        timers: 0,
        frames: 0,
        observers: 0,
        documentSheets: 0,
        global: false,
      });
    // The counter counts: the widget did add listeners, timers and observers while it ran.
    expect(await page.evaluate('window.counted')).toEqual({ listeners: true, timers: true, observers: true });
  });
});

describe('stacking and placement', () => {
  it('takes data-z-index and data-offset-x/-y, and keeps the panel clear of its launcher', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    await page.evaluate('window.Askbox.destroy()');
    await addTag(page, { botId: DEMO_BOT_ID, proxyUrl: '/askbox', zIndex: '1000', offsetX: '40', offsetY: '90' });
    await page.locator(W.launcher).click();
    await page.locator(W.panel).waitFor();
    // Off the launcher, which grows under the pointer: measured once its transition back has ended.
    await page.mouse.move(0, 0);
    await animationFrames(page);
    await page.waitForFunction(
      () =>
        document.querySelector('askbox-widget')?.shadowRoot?.querySelector('.launcher')?.getAnimations().length === 0,
      undefined,
      { timeout: 5_000 },
    );
    const launcher = await page.locator(W.launcher).boundingBox();
    const panel = await page.locator(W.panel).boundingBox();
    expect([
      1000 - (launcher?.x ?? 0) - (launcher?.width ?? 0),
      760 - (launcher?.y ?? 0) - (launcher?.height ?? 0),
    ]).toEqual([40, 90]);
    expect((panel?.y ?? 0) + (panel?.height ?? 0)).toBeLessThanOrEqual(launcher?.y ?? 0);
    expect(1000 - (panel?.x ?? 0) - (panel?.width ?? 0)).toBe(40);
    const zIndex = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).zIndex);
    expect([await zIndex(W.launcher), await zIndex(W.panel)]).toEqual(['1000', '1000']);
  });
});
