import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createIdentityCheck, identityHash, isPersonKey } from '../../../../src/proxy/core/identity';
import type { ProxyLogEntry } from '../../../../src/proxy/core/options';
import { IDENTITY, STORE_SIZES } from '../../../../src/protocol/contract';
import { refusalBody } from '../../../helpers/messages';

const SECRET = 'identity-unit-secret-0123456789';
const ID = 'alice@example.com';
const hex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const HASH = hex(SECRET, ID);
/** `text` with its digit at `at` changed. */
const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === '0' ? '1' : '0'}${text.slice(at + 1)}`;

/** A request with these identity headers (an absent one is left out). */
const request = (id?: string, hash?: string) =>
  new Request('http://shop.test/askbox/conversations', {
    headers: {
      ...(id !== undefined && { [IDENTITY.userHeader]: id }),
      ...(hash !== undefined && { [IDENTITY.hashHeader]: hash }),
    },
  });

async function check(id?: string, hash?: string, secret: string | undefined = SECRET) {
  const logs: ProxyLogEntry[] = [];
  const identity = await createIdentityCheck(secret, (entry) => logs.push(entry))(request(id, hash));
  return { identity, logs };
}

describe('identity headers (issue 35)', () => {
  it('leave a request without them anonymous, and log nothing, with or without a secret', async () => {
    for (const secret of [SECRET, undefined]) {
      const { identity, logs } = await check(undefined, undefined, secret);
      expect(identity).toEqual({ person: null });
      expect(logs).toEqual([]);
    }
  });

  it('name a verified person by their key: u- and 40 hex digits of HMAC(secret, label + id)', async () => {
    const { identity, logs } = await check(ID, HASH);
    const key = `u-${hex(SECRET, `${IDENTITY.personLabel}${ID}`).slice(0, 40)}`;
    expect(identity).toEqual({ person: key });
    expect(key).toMatch(new RegExp(IDENTITY.personKeyPattern));
    expect(logs).toEqual([]);
    // Another person, another key; the same person, the same key.
    const other = await check('bob@example.com', hex(SECRET, 'bob@example.com'));
    expect(other.identity).not.toEqual(identity);
    expect((await check(ID, HASH)).identity).toEqual(identity);
  });

  it('accept every character an id may hold, up to 128 of them', async () => {
    for (const id of ['a', 'A.b_c@d:e+f=g-0', 'x'.repeat(128), '42']) {
      const { identity } = await check(id, hex(SECRET, id));
      expect(identity, id).toEqual({ person: expect.stringMatching(/^u-[0-9a-f]{40}$/) });
    }
  });

  it.each([
    ['a forged hash', ID, 'ab'.repeat(32)],
    ['the first digit changed', ID, flip(HASH, 0)],
    ['a middle digit changed', ID, flip(HASH, 32)],
    ['the last digit changed', ID, flip(HASH, 63)],
    ['the hash in uppercase', ID, HASH.toUpperCase()],
    ['one uppercase digit', ID, HASH.replace(/[a-f]/, (c) => c.toUpperCase())],
    ['the hash cut short', ID, HASH.slice(0, 63)],
    ['the hash and one more digit', ID, `${HASH}0`],
    ['the hash of another id', 'bob@example.com', HASH],
    ['another site’s hash', ID, hex('another-site-secret-0123456789', ID)],
    ['the hash of the id with the person label', ID, hex(SECRET, `${IDENTITY.personLabel}${ID}`)],
    ['the id without a hash', ID, undefined],
    ['a hash without the id', undefined, HASH],
    ['an empty id', '', hex(SECRET, '')],
    ['an empty hash', ID, ''],
    ['an id with a space', 'alice smith', hex(SECRET, 'alice smith')],
    ['an id of 129 characters', 'x'.repeat(129), hex(SECRET, 'x'.repeat(129))],
    ['an id with a slash', 'a/b', hex(SECRET, 'a/b')],
  ])('refuse %s: 403 identityRefused in the envelope', async (_name, id, hash) => {
    const { identity, logs } = await check(id, hash);
    if (!('refused' in identity)) throw new Error(`not refused: ${JSON.stringify(identity)}`);
    expect(identity.refused.status).toBe(403);
    expect(await identity.refused.json()).toEqual(refusalBody('identityRefused'));
    expect(logs).toEqual([]);
  });

  it(`remember the last ${STORE_SIZES.verifiedIdentities} verified pairs, forget the oldest first, and never a refused one`, async () => {
    const identify = createIdentityCheck(SECRET, () => undefined);
    const ids = Array.from({ length: STORE_SIZES.verifiedIdentities + 1 }, (_, i) => `person-${i}`);
    for (const id of ids) await identify(request(id, hex(SECRET, id)));
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      const again = await identify(request(ids[1], hex(SECRET, ids[1]!)));
      expect(again).toEqual((await check(ids[1], hex(SECRET, ids[1]!))).identity);
      expect(verify).toHaveBeenCalledTimes(1);
      // The oldest was forgotten: verified again. A known id with another hash is no hit: refused.
      await identify(request(ids[0], hex(SECRET, ids[0]!)));
      expect(verify).toHaveBeenCalledTimes(2);
      expect(await identify(request(ids[1], flip(hex(SECRET, ids[1]!), 63)))).toEqual({
        refused: expect.any(Response),
      });
      expect(await identify(request(ids[1], hex('another-site-secret-0123', ids[1]!)))).toEqual({
        refused: expect.any(Response),
      });
    } finally {
      verify.mockRestore();
    }
    // 10,001 Web Crypto verifications and signs: 2–5 s on the shared two cores, more under load.
  }, 30_000);

  it('are refused by a proxy without identitySecret, with one log line naming the setting per request', async () => {
    const logs: ProxyLogEntry[] = [];
    const identify = createIdentityCheck(undefined, (entry) => logs.push(entry));
    for (const [id, hash] of [
      [ID, HASH],
      [ID, undefined],
    ] as const) {
      const identity = await identify(request(id, hash));
      expect('refused' in identity && identity.refused.status).toBe(403);
    }
    expect(logs).toEqual([
      expect.objectContaining({ level: 'error', event: 'config', message: expect.stringContaining('identitySecret') }),
      expect.objectContaining({ level: 'error', event: 'config', message: expect.stringContaining('identitySecret') }),
    ]);
    expect(logs[0]!.message).toContain('ASKBOX_IDENTITY_SECRET');
  });

  it('hash as a site’s server does: HMAC-SHA256 in lowercase hex (identityHash)', async () => {
    expect(await identityHash(SECRET, ID)).toBe(HASH);
  });
});

describe('person keys', () => {
  it.each([
    [`u-${'0123456789abcdef'.repeat(2)}01234567`, true],
    [`u-${'a'.repeat(39)}`, false],
    [`u-${'a'.repeat(41)}`, false],
    [`u-${'A'.repeat(40)}`, false],
    [`x-${'a'.repeat(40)}`, false],
    [`${'a'.repeat(42)}`, false],
    ['AAAAAAAAAAAAAAAAAAAAAA', false],
    [`u-${'a'.repeat(40)}\n`, false],
  ])('%s is a person key: %s', (id, expected) => {
    expect(isPersonKey(id)).toBe(expected);
  });
});
