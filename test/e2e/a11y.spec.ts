import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

describe('axe-core in Chromium, shadow root included', () => {
  it('finds no violation in the closed widget nor in the open, empty panel', async () => {
    const { page } = await e2e.open('/plain.html');
    await page.locator(W.launcher).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.locator(W.launcher).click();
    await page.locator(W.welcome).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
