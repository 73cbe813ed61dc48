import { describe, expect, it } from 'vitest';
import { field, passThrough, readJson, readText } from '../../../../src/proxy/core/respond';

/** What the proxy passes on of a service answer's `Retry-After`. */
async function retryAfter(status: number, value: string): Promise<string | null> {
  const upstream = new Response('{"message":"wait"}', {
    status,
    headers: { 'content-type': 'application/json', 'retry-after': value },
  });
  return (await passThrough(upstream)).headers.get('retry-after');
}

describe("the service's Retry-After", () => {
  it.each([
    [429, '120', '120'],
    [503, '7', '7'],
    [503, '1234567890', '1234567890'],
    [429, 'Wed, 21 Oct 2026 07:28:00 GMT', 'Wed, 21 Oct 2026 07:28:00 GMT'],
    [500, '5', null],
    [429, '12345678901', null],
    [429, '12s', null],
    [429, 's12', null],
    [429, 'Wed, 21 Oct 2026 07:28:00 GMT<script>', null],
    [429, '<b>Wed, 21 Oct 2026 07:28:00 GMT', null],
    [429, 'W, 21 Oct 2026 07:28:00 GMT', null],
    [429, '123, 21 Oct 2026 07:28:00 GMT', null],
    [429, 'Wed, 1 Oct 2026 07:28:00 GMT', null],
    [429, 'Wed, ab Oct 2026 07:28:00 GMT', null],
    [429, 'Wed, 21 O 2026 07:28:00 GMT', null],
    [429, 'Wed, 21 123 2026 07:28:00 GMT', null],
    [429, 'Wed, 21 Oct 26 07:28:00 GMT', null],
    [429, 'Wed, 21 Oct abcd 07:28:00 GMT', null],
    [429, 'Wed, 21 Oct 2026 7:28:00 GMT', null],
    [429, 'Wed, 21 Oct 2026 ab:28:00 GMT', null],
    [429, 'Wed, 21 Oct 2026 07:2:00 GMT', null],
    [429, 'Wed, 21 Oct 2026 07:ab:00 GMT', null],
    [429, 'Wed, 21 Oct 2026 07:28:0 GMT', null],
    [429, 'Wed, 21 Oct 2026 07:28:ab GMT', null],
  ])('on a %i, %j passes on as %j', async (status, value, expected) => {
    expect(await retryAfter(status, value)).toBe(expected);
  });
});

describe('request bodies at their size limit', () => {
  it('reads a body that declares exactly the limit', async () => {
    const request = new Request('http://x/', { method: 'POST', body: 'abcd', headers: { 'content-length': '4' } });
    expect(await readText(request, 4)).toBe('abcd');
  });

  it('refuses a JSON body that is a number or a string, not an object', async () => {
    for (const body of ['5', '"text"', 'true']) {
      const request = new Request('http://x/', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(((await readJson(request)) as Response).status, body).toBe(400);
    }
  });
});

describe('fields of untrusted JSON', () => {
  it('reads own keys of plain objects only, not the properties of a string or a list', () => {
    expect(field({ data: { id: 'c1' } }, 'data', 'id')).toBe('c1');
    expect(field('text', 'length')).toBeUndefined();
    expect(field(['a'], 'length')).toBeUndefined();
  });
});
