import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { nodeAesGcm } from '../../../../src/proxy/adapters/node/aes-gcm';
import { fromBase64Url, toBase64Url } from '../../../../src/proxy/core/grant';
import { createSealer, webAesGcm, type AesGcm } from '../../../../src/proxy/core/seal';

const SECRET = 'seal-unit-secret-0123456789';
const NOW = Date.parse('2026-11-29T08:00:00Z');
const STREAM = { url: 'https://stream.test/abc', conversationId: 'conv0000001' };
const KEY = createHash('sha256').update(`askbox:stream:${SECRET}`).digest();

/** The documented layout, sealed with node:crypto by hand: what the PHP proxy's openssl_encrypt writes. */
function documented(payload: object, iv = Buffer.alloc(12, 7)): string {
  const cipher = createCipheriv('aes-256-gcm', KEY, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(payload)), cipher.final(), cipher.getAuthTag()]);
  return toBase64Url(Buffer.concat([iv, sealed]));
}

/** Opens a token of the documented layout by hand, checking its tag. */
function openDocumented(token: string): unknown {
  const bytes = Buffer.from(fromBase64Url(token)!);
  const decipher = createDecipheriv('aes-256-gcm', KEY, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(-16));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]).toString());
}

const IMPLEMENTATIONS: [string, AesGcm][] = [
  ['Web Crypto', webAesGcm],
  ['node:crypto', nodeAesGcm],
];

describe.each(IMPLEMENTATIONS)('stream tokens sealed with %s', (_, aesGcm) => {
  const sealer = () => createSealer([SECRET], () => NOW, aesGcm);

  it('have the documented layout, and open tokens of it', async () => {
    const token = await sealer().seal(STREAM, 30_000);
    expect(openDocumented(token)).toEqual({ u: STREAM.url, c: STREAM.conversationId, e: NOW + 30_000 });
    const made = documented({ u: STREAM.url, c: STREAM.conversationId, e: NOW + 1 });
    expect(await sealer().open(made)).toEqual(STREAM);
  });

  it.each(IMPLEMENTATIONS)('open as tokens sealed with %s, and the other way round', async (__, other) => {
    const there = createSealer([SECRET], () => NOW, other);
    expect(await sealer().open(await there.seal(STREAM, 30_000))).toEqual(STREAM);
    expect(await there.open(await sealer().seal(STREAM, 30_000))).toEqual(STREAM);
  });

  it('take a fresh random IV for every token', async () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    const sealing = sealer();
    const tokens = await Promise.all(Array.from({ length: 64 }, () => sealing.seal(STREAM, 30_000)));
    // The IV is what the runtime's CSPRNG gave, once per token...
    expect(random).toHaveBeenCalledTimes(64);
    const ivs = tokens.map((token) => toBase64Url(fromBase64Url(token)!.subarray(0, 12)));
    expect(ivs).toEqual(random.mock.results.map((result) => toBase64Url(result.value as Uint8Array)));
    random.mockRestore();
    // ...and no two IVs (nor, so, ciphertexts) of one key are the same.
    expect(new Set(ivs).size).toBe(64);
    expect(new Set(tokens.map((token) => token.slice(16))).size).toBe(64);
  });

  it('refuse a token with any one bit changed: IV, ciphertext or tag', async () => {
    const bytes = fromBase64Url(await sealer().seal(STREAM, 30_000))!;
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Uint8Array.from(bytes, (b, j) => (j === i ? b ^ 0x80 : b));
      expect(await sealer().open(toBase64Url(flipped)), `byte ${i}`).toBeNull();
    }
    expect(await sealer().open(toBase64Url(bytes.subarray(0, -1)))).toBeNull();
  });

  it('check the tag at the primitive itself', async () => {
    const key = aesGcm(KEY);
    const iv = new Uint8Array(12).fill(1);
    const sealed = await key.encrypt(iv, new TextEncoder().encode('hello'));
    expect(sealed.length).toBe(5 + 16);
    expect(new TextDecoder().decode((await key.decrypt(iv, sealed))!)).toBe('hello');
    const badTag = Uint8Array.from(sealed, (b, j) => (j === sealed.length - 1 ? b ^ 1 : b));
    expect(await key.decrypt(iv, badTag)).toBeNull();
    expect(await key.decrypt(iv, sealed.subarray(0, 5))).toBeNull();
    expect(await key.decrypt(new Uint8Array(12), sealed)).toBeNull();
  });

  it('open an empty payload, which is its tag alone, and take anything shorter than a tag for no token', async () => {
    const key = aesGcm(KEY);
    const iv = new Uint8Array(12).fill(2);
    const sealed = await key.encrypt(iv, new Uint8Array(0));
    expect(sealed.length).toBe(16);
    expect(Array.from((await key.decrypt(iv, sealed))!)).toEqual([]);
    for (const length of [0, 1, 15]) expect(await key.decrypt(iv, sealed.subarray(0, length)), `${length}`).toBeNull();
  });
});
