import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROOF_OF_WORK } from '../../src/protocol/contract';
import { ask, startE2E, W } from './harness';

let e2e: Awaited<ReturnType<typeof startE2E>>;
let off: Awaited<ReturnType<typeof startE2E>>;

// The proxy asks for proof of work at its default cost: the widget solves it as a visitor's browser would.
beforeAll(async () => {
  e2e = await startE2E({ defaults: { delayMs: 10 } }, { proofOfWork: true });
  off = await startE2E({ defaults: { delayMs: 10 } });
});
afterAll(async () => {
  await e2e?.close();
  await off?.close();
});

describe('proof of work in Chromium', () => {
  it.each(['/plain.html', '/csp.html'])(
    // Long tasks while solving are counted by `npm run bench:pow` (none): here the chat file's first render has its own.
    'solves the challenge in the background once the panel opens, then chats (%s)',
    async (path) => {
      const { page, requests, consoleErrors, pageErrors } = await e2e.open(path);
      const created: Request[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/askbox/conversations')) created.push(request);
      });
      await page.locator(W.launcher).click();
      // The challenge is fetched on opening, before the visitor has typed anything.
      await expect.poll(() => requests.includes('GET /askbox/challenge')).toBe(true);
      await ask(page, 'How long does delivery take?');
      await expect.poll(() => page.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
      expect(created).toHaveLength(1);
      const body = created[0]!.postDataJSON() as {
        proof: { challenge: { parameters: { keyPrefix: string; cost: number } }; solution: { derivedKey: string } };
      };
      expect(body.proof.challenge.parameters).toMatchObject({
        cost: PROOF_OF_WORK.normal.cost,
        keyPrefix: '0'.repeat(PROOF_OF_WORK.normal.prefixLength),
      });
      expect(body.proof.solution.derivedKey).toMatch(/^0[0-9a-f]{63}$/);
      expect(requests.filter((r) => r === 'GET /askbox/challenge')).toHaveLength(1);
      expect([consoleErrors, pageErrors]).toEqual([[], []]);
    },
  );

  it('asks once and sends no proof when the proxy needs none, with nothing on the console', async () => {
    const { page, requests, consoleErrors, consoleWarnings } = await off.open('/plain.html');
    const bodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/askbox/conversations'))
        bodies.push(request.postDataJSON());
    });
    await ask(page, 'How long does delivery take?');
    await expect.poll(() => page.locator(W.bot).count(), { timeout: 10_000 }).toBe(1);
    expect(requests.filter((r) => r === 'GET /askbox/challenge')).toHaveLength(1);
    expect(bodies).toEqual([expect.not.objectContaining({ proof: expect.anything() })]);
    expect([consoleErrors, consoleWarnings]).toEqual([[], []]);
  });
});
