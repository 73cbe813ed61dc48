import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;

// Each reply but its last character at once, then a pause: the caret is measured mid-stream.
const held = (match: string, text: string) => ({ match, text, chunkSize: [text.length - 1, 1], delayMs: 3000 });

beforeAll(async () => {
  e2e = await startE2E({
    replies: [
      held('list', 'Steps:\n\n1. Open\n   - nested one\n   - nested two\n2. Pick a plan and pay'),
      held('code', 'Run:\n\n```\nnpm install askbox\nnpm start'),
    ],
  });
});
afterAll(() => e2e?.close());

/** The elements of the streaming reply whose `::after` shows the caret, by tag and text. */
async function carets(page: Parameters<typeof ask>[0]) {
  return page
    .locator(W.streaming)
    .evaluate((reply) =>
      [...reply.querySelectorAll('*')]
        .filter((el) => getComputedStyle(el, '::after').content.includes('▍'))
        .map((el) => `${el.tagName.toLowerCase()}: ${el.textContent?.trim().split('\n').at(-1)}`),
    );
}

describe('the streaming caret follows the last character written', () => {
  it('in a list: after the last item, not on a line of its own', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'Show me a list');
    await page.locator(W.streaming, { hasText: 'Pick a plan and pa' }).waitFor();
    expect(await carets(page)).toEqual(['li: Pick a plan and pa']);
  });

  it('in a code block: after the code', async () => {
    const { page } = await e2e.open('/');
    await ask(page, 'Show me code');
    await page.locator(W.streaming, { hasText: 'npm star' }).waitFor();
    expect(await carets(page)).toEqual(['code: npm star']);
  });
});
