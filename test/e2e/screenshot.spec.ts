import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

// The demo as `npm start` runs it: no scenario, so the simulator answers from its knowledge base.
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

describe('the README screenshot', () => {
  it('shows what the default demo produces: a knowledge-base answer with its sources', async () => {
    const { page, consoleErrors } = await e2e.open('/');
    await page.getByRole('button', { name: 'Ask “How do returns work?”' }).click();
    const reply = page.locator(W.bot).last();
    await reply.locator('.sources').waitFor();
    expect(await page.locator(W.user).textContent()).toContain('How do returns work?');
    expect(await reply.locator('.md').textContent()).toMatch(/return/i);
    expect(await reply.locator('.sources a').count()).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);

    const shots = fileURLToPath(new URL('./artifacts/', import.meta.url));
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}widget.png` });
    // ASKBOX_UPDATE_SCREENSHOT=1 npx vitest run test/e2e/screenshot.spec.ts refreshes the README's picture.
    if (process.env.ASKBOX_UPDATE_SCREENSHOT)
      copyFileSync(`${shots}widget.png`, fileURLToPath(new URL('../../demo/screenshot.png', import.meta.url)));
  });
});
