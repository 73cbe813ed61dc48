import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { animationFrames, ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      { match: 'steps', text: 'إليك الخطوات:\n\n1. افتح حسابك\n2. اختر الخطة', sources: ['Pricing plans'] },
      { match: 'english', text: 'Sure:\n\n1. Open your account\n2. Pick a plan' },
    ],
  });
});
afterAll(() => e2e?.close());

describe('right to left (Chromium, Arabic page)', () => {
  it('mirrors the widget: launcher and panel at the left, questions left, replies right, numbers on the right', async () => {
    const { page } = await e2e.open('/rtl.html');
    await ask(page, 'ما هي steps؟');
    await page.locator(`${W.bot} .sources a`).waitFor();
    // Off the launcher, which grows under the pointer.
    await page.mouse.move(500, 0);
    // The reply and its question, just put in, measured at their own size (see animationFrames).
    await animationFrames(page);
    const geometry = await page.evaluate(() => {
      const root = document.querySelector('askbox-widget')?.shadowRoot;
      const find = (selector: string) => {
        const element = root?.querySelector(selector);
        if (!element) throw new Error(`missing ${selector}`);
        return element;
      };
      const box = (selector: string) => find(selector).getBoundingClientRect();
      const style = (selector: string) => getComputedStyle(find(selector));
      const bot = '.msg--bot:not(.msg--welcome)';
      const [first, second] = root?.querySelectorAll('.head .icon-button') ?? [];
      return {
        dir: find('.askbox').getAttribute('dir'),
        launcher: box('.launcher').left,
        panel: box('.panel').left,
        // Distances from the log's start (right) and end (left) edges.
        userFromLeft: box('.msg--user').left - box('.log__in').left,
        botFromRight: box('.log__in').right - box(bot).right,
        userTail: style('.msg--user').borderBottomLeftRadius,
        botTail: style(bot).borderBottomRightRadius,
        replyDirection: style(`${bot} .md`).direction,
        listPadding: [style(`${bot} ol`).paddingRight, style(`${bot} ol`).paddingLeft],
        sourcesPadding: style(`${bot} .sources__list`).paddingRight,
        titleBeforeButtons: box('.title').left > (first?.getBoundingClientRect().left ?? 0),
        buttonsMirrored: (first?.getBoundingClientRect().left ?? 0) > (second?.getBoundingClientRect().left ?? 0),
        sendArrow: style('.send .icon').transform,
      };
    });
    expect(geometry).toEqual({
      dir: 'rtl',
      launcher: 20,
      panel: 20,
      userFromLeft: 0,
      botFromRight: 0,
      userTail: '4px',
      botTail: '4px',
      replyDirection: 'rtl',
      listPadding: ['20px', '0px'],
      sourcesPadding: '18px',
      titleBeforeButtons: true,
      buttonsMirrored: true,
      sendArrow: 'matrix(-1, 0, 0, 1, 0, 0)',
    });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps an English reply left to right inside the right-to-left widget (dir=auto), and an Arabic question right to left', async () => {
    const { page } = await e2e.open('/rtl.html');
    await ask(page, 'english please');
    await page.locator(`${W.bot} ol`).waitFor();
    const reply = page.locator(`${W.bot} .md`);
    expect(await reply.getAttribute('dir')).toBe('auto');
    expect(await reply.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    expect(await page.locator(`${W.bot} ol`).evaluate((el) => getComputedStyle(el).paddingLeft)).toBe('20px');

    await ask(page, 'مرحبا');
    const question = page.locator(`${W.user} .msg__text`).last();
    await question.waitFor();
    expect(await question.getAttribute('dir')).toBe('auto');
    expect(await question.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  });

  it('stays left to right on a left-to-right page: the default direction', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    const launcher = await page.locator(W.launcher).boundingBox();
    expect(await page.locator('askbox-widget .askbox').getAttribute('dir')).toBe('ltr');
    expect((launcher?.x ?? 0) + (launcher?.width ?? 0)).toBe(1000 - 20);
    await page.locator(W.launcher).click();
    expect(await page.locator('askbox-widget .send .icon').evaluate((el) => getComputedStyle(el).transform)).toBe(
      'none',
    );
  });
});
