import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/config/locales/index';
import { axeViolations } from './axe';
import { deepActive, retag, startE2E, W } from './harness';
import { type Box, PHONE, rect } from './screen';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const CHAT = /\/askbox-chat\.[\w-]+\.js$/;
const FRAME = 'askbox-widget .pending';
/** The parts of the failure notice, each a box of its own: the frame's regions, and the header's own parts. */
const REGIONS = ['.pending__head', '.pending__notice', '.pending__retry', '.pending__contact'];
const HEADER = ['.pending__title', '.pending__close'];

/** The chat file answers 404 from now on, as after a deploy that left the page's askbox.js behind. */
const blockChat = (page: Page) => page.route(CHAT, (route) => route.fulfill({ status: 404, body: 'Not found' }));

/** Opens the panel by the launcher and waits for the failure notice. */
async function openFailed(page: Page) {
  await page.locator(W.launcher).click();
  await page.locator(`${FRAME} [role="alert"]`).waitFor();
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

/** Every part inside the panel, and no two parts of one level on top of each other. */
async function expectLaidOut(page: Page) {
  const panel = await rect(page, '.pending');
  if (!panel) throw new Error('no frame');
  for (const level of [REGIONS, HEADER]) {
    const boxes = await Promise.all(level.map((selector) => rect(page, selector)));
    for (const [index, box] of boxes.entries()) {
      if (!box) throw new Error(`${level[index]} is not drawn`);
      expect(inside(box, panel), `${level[index]} inside the panel`).toBe(true);
      for (const other of boxes.slice(index + 1))
        expect(other && overlap(box, other), JSON.stringify(boxes)).toBe(false);
    }
  }
}

describe('the chat file cannot load: the failure notice the launcher draws', () => {
  it.each([
    { screen: 'desktop', size: {} },
    { screen: 'phone', size: PHONE },
  ])('has a header, what happened, Retry and the site contact, laid out and axe-clean ($screen)', async ({ size }) => {
    const { page, pageErrors } = await e2e.open('/plain.html', size);
    await retag(page, { title: 'Acme help', handoffEmail: 'help@acme.test' });
    await blockChat(page);
    await page.locator(W.launcher).waitFor();
    await openFailed(page);
    const frame = page.locator(FRAME);
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe('Acme help');
    expect(await frame.getByRole('dialog', { name: 'Acme help' }).count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Acme help' }).count()).toBe(1);
    expect(await frame.getByRole('button', { name: 'Close' }).count()).toBe(1);
    expect(await frame.getByRole('alert').textContent()).toBe(
      'The chat could not be loaded.Please check your connection and try again.',
    );
    const contact = frame.getByRole('link', { name: 'Contact us' });
    expect(await contact.getAttribute('href')).toBe('mailto:help@acme.test');
    // The visitor opened it: focus is on what they can do about it.
    expect(await deepActive(page)).toBe('button.pending__retry');
    await expectLaidOut(page);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    expect(pageErrors).toEqual([]);
  });

  it('keeps focus on Retry while it fails, then moves it into the chat once it loads', async () => {
    const { page } = await e2e.open('/plain.html');
    await blockChat(page);
    await openFailed(page);
    // No contact set, no link.
    expect(await page.locator(`${FRAME} a`).count()).toBe(0);
    await page.keyboard.press('Enter');
    await page.locator(`${FRAME} [role="alert"]`).waitFor();
    expect(await deepActive(page)).toBe('button.pending__retry');

    await page.unroute(CHAT);
    await page.keyboard.press('Enter');
    await page.locator(W.input).waitFor();
    expect(await page.locator(FRAME).count()).toBe(0);
    await expect.poll(() => deepActive(page)).toBe('textarea.input');
  });

  it('gives focus back to the launcher when closed, by its button or Escape', async () => {
    const { page } = await e2e.open('/plain.html');
    await blockChat(page);
    await openFailed(page);
    await page.locator(FRAME).getByRole('button', { name: 'Close' }).click();
    expect(await page.locator(FRAME).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.launcher');
    expect(await page.locator(W.launcher).getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Enter');
    await page.locator(`${FRAME} [role="alert"]`).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.locator(FRAME).count()).toBe(0);
    expect(await deepActive(page)).toBe('button.launcher');
  });

  it("speaks the page's language when its strings came, and links the site's contact page", async () => {
    const { page } = await e2e.open('/de.html');
    await retag(page, { handoffUrl: 'https://acme.test/kontakt' });
    await blockChat(page);
    await page.locator(W.launcher).waitFor();
    await openFailed(page);
    const de = TABLES.de!;
    const frame = page.locator(FRAME);
    expect(await frame.getByRole('heading', { level: 2 }).textContent()).toBe(de.title);
    expect(await frame.getByRole('alert').textContent()).toBe(`${de.loadFailed}${de.loadFailedHint}`);
    expect(await frame.getByRole('button', { name: de.retry }).count()).toBe(1);
    expect(await frame.getByRole('button', { name: de.close }).count()).toBe(1);
    const contact = frame.getByRole('link', { name: de.limitContact });
    expect(await contact.getAttribute('href')).toBe('https://acme.test/kontakt');
    expect(await contact.getAttribute('target')).toBe('_blank');
    await expectLaidOut(page);
  });
});
