import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { STORE_SIZES } from '../../../../src/protocol/contract';
import { createGrants, fromBase64Url, toBase64Url } from '../../../../src/proxy/core/grant';
import { createSealer } from '../../../../src/proxy/core/seal';

const SECRET = 'grant-unit-secret-0123456789';
const NOW = Date.parse('2026-11-22T12:00:00Z');
const GRANT = {
  conversationId: 'conv0000001',
  botId: 'askboxDemo01',
  visitorId: 'visitor_-01',
  expires: NOW / 1000 + 60,
};

/** The documented format, signed with node:crypto: what the other runtimes produce. */
function signed(parts: string[], secret = SECRET): string {
  const payload = parts.join('.');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

describe('grants', () => {
  it('sign the documented format, byte for byte', async () => {
    const token = await createGrants([SECRET], () => NOW).sign(GRANT);
    expect(token).toBe(signed(['g1', GRANT.conversationId, GRANT.botId, GRANT.visitorId, String(GRANT.expires)]));
  });

  it('verify until the second they expire, not at it', async () => {
    const clock = { now: NOW };
    const grants = createGrants([SECRET], () => clock.now);
    const token = await grants.sign(GRANT);
    clock.now = GRANT.expires * 1000 - 1;
    expect(await grants.verify(token)).toEqual(GRANT);
    clock.now = GRANT.expires * 1000;
    expect(await grants.verify(token)).toBeNull();
    // A remembered grant is checked against the clock all the same.
    clock.now = NOW;
    const fresh = createGrants([SECRET], () => clock.now);
    expect(await fresh.verify(token)).toEqual(GRANT);
    clock.now = GRANT.expires * 1000;
    expect(await fresh.verify(token)).toBeNull();
    // And one never seen before is refused at its expiry second too, not only once remembered.
    expect(await createGrants([SECRET], () => clock.now).verify(token)).toBeNull();
  });

  it.each([
    ['no grant', null],
    ['empty', ''],
    ['five parts', signed(['g1', 'conv', 'bot', 'visitor']).replace(/\.[^.]*$/, '')],
    ['seven parts', signed(['g1', 'conv', 'bot', 'visitor', String(NOW / 1000 + 60), 'extra'])],
    [
      'a valid grant with a part appended',
      `${signed(['g1', 'conv', 'bot', 'visitor', String(NOW / 1000 + 60)])}.${'A'.repeat(43)}`,
    ],
    ['another version', signed(['g2', 'conv', 'bot', 'visitor', String(NOW / 1000 + 60)])],
    [
      'a part with a dot-free but foreign character',
      signed(['g1', 'conv!', 'bot', 'visitor', String(NOW / 1000 + 60)]),
    ],
    ['an empty part', signed(['g1', '', 'bot', 'visitor', String(NOW / 1000 + 60)])],
    ['a part longer than 64', signed(['g1', 'c'.repeat(65), 'bot', 'visitor', String(NOW / 1000 + 60)])],
    ['a part with a trailing space', signed(['g1', 'conv ', 'bot', 'visitor', String(NOW / 1000 + 60)])],
    ['an expiry that is not a number', signed(['g1', 'conv', 'bot', 'visitor', 'soon'])],
    ['an expiry with a sign', signed(['g1', 'conv', 'bot', 'visitor', `+${NOW / 1000 + 60}`])],
    [
      'an expiry of 13 digits',
      signed(['g1', 'conv', 'bot', 'visitor', `1${String(NOW / 1000 + 60).padStart(12, '0')}`]),
    ],
    [
      'a signature that is not base64url',
      `${signed(['g1', 'conv', 'bot', 'visitor', String(NOW / 1000 + 60)]).slice(0, -2)}+/`,
    ],
    ['a signature of one character', `g1.conv.bot.visitor.${NOW / 1000 + 60}.A`],
    ['a signature of five characters', `g1.conv.bot.visitor.${NOW / 1000 + 60}.AAAAA`],
    ['another secret', signed(['g1', 'conv', 'bot', 'visitor', String(NOW / 1000 + 60)], 'another-secret-0123456789')],
  ])('refuse %s without throwing', async (_name, token) => {
    await expect(createGrants([SECRET], () => NOW).verify(token)).resolves.toBeNull();
  });

  it(`remember the last ${STORE_SIZES.verifiedGrants} valid grants, and forget the oldest first`, async () => {
    const grants = createGrants([SECRET], () => NOW);
    const tokens = await Promise.all(
      Array.from({ length: STORE_SIZES.verifiedGrants + 1 }, (_, i) =>
        grants.sign({ ...GRANT, conversationId: `conv${String(i).padStart(7, '0')}` }),
      ),
    );
    for (const token of tokens) await grants.verify(token);
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      expect(await grants.verify(tokens[1]!)).not.toBeNull();
      expect(verify).not.toHaveBeenCalled();
      expect(await grants.verify(tokens[0]!)).not.toBeNull();
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('verify with any listed secret and sign with the first', async () => {
    const old = await createGrants(['old-secret-0123456789'], () => NOW).sign(GRANT);
    const rotated = createGrants([SECRET, 'old-secret-0123456789'], () => NOW);
    expect(await rotated.verify(old)).toEqual(GRANT);
    expect(await rotated.sign(GRANT)).toBe(await createGrants([SECRET], () => NOW).sign(GRANT));
  });
});

describe('base64url', () => {
  it('round-trips bytes without padding and refuses what is not base64url', () => {
    for (const length of [0, 1, 2, 3, 16, 32]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + 251) % 256);
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      if (length) expect(Array.from(fromBase64Url(text) ?? [])).toEqual(Array.from(bytes));
    }
    expect(toBase64Url(Uint8Array.from([0xfb, 0xff]))).toBe('-_8');
    for (const bad of ['', 'A', 'AAAAA', 'AA=A', 'AA AA', 'AA+A', 'x'.repeat(4097), 'AAAA\n'])
      expect(fromBase64Url(bad)).toBeNull();
  });
});

describe('stream tokens', () => {
  const STREAM = { url: 'https://stream.test/abc', conversationId: 'conv0000001' };

  it('open until they expire, with any listed secret, and bind their conversation', async () => {
    const clock = { now: NOW };
    const sealer = createSealer([SECRET], () => clock.now);
    const token = await sealer.seal(STREAM, 30_000);
    expect(await createSealer(['next-secret-0123456789', SECRET], () => clock.now).open(token)).toEqual(STREAM);
    clock.now += 29_999;
    expect(await sealer.open(token)).toEqual(STREAM);
    clock.now += 1;
    expect(await sealer.open(token)).toBeNull();
  });

  it('refuse forged, altered, truncated and foreign tokens without throwing', async () => {
    const sealer = createSealer([SECRET], () => NOW);
    const token = await sealer.seal(STREAM, 30_000);
    const bytes = fromBase64Url(token)!;
    const flipped = Uint8Array.from(bytes, (b, i) => (i === 20 ? b ^ 1 : b));
    for (const bad of [
      '',
      'AAAA',
      'not a token',
      toBase64Url(bytes.slice(0, 28)),
      toBase64Url(flipped),
      toBase64Url(bytes.slice(0, -1)),
    ]) {
      await expect(sealer.open(bad)).resolves.toBeNull();
    }
    await expect(createSealer(['another-secret-0123456789'], () => NOW).open(token)).resolves.toBeNull();
  });
});
