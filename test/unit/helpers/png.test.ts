import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { countDifferentPixels, decodePng } from '../../helpers/png';

/** One PNG chunk; the CRC is left zero because decodePng does not check it. */
function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  return out;
}

/** Encodes RGB rows as a PNG, with the given filter byte on every row (sub-filtered data is pre-computed). */
function png(width: number, rows: number[][], filter = 0): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(rows.length, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.concat(rows.map((row) => Buffer.from([filter, ...row])));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodePng (screenshot comparison helper)', () => {
  it('decodes unfiltered and sub-filtered rows', () => {
    expect(Array.from(decodePng(png(2, [[1, 2, 3, 4, 5, 6]])).data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Array.from(decodePng(png(2, [[10, 20, 30, 1, 1, 1]], 1)).data)).toEqual([10, 20, 30, 11, 21, 31]);
  });

  it('counts pixels beyond the tolerance, and size mismatches as everything', () => {
    const a = png(2, [[0, 0, 0, 0, 0, 0]]);
    expect(countDifferentPixels(a, png(2, [[0, 0, 10, 0, 0, 0]]))).toBe(0);
    expect(countDifferentPixels(a, png(2, [[0, 0, 200, 0, 0, 0]]))).toBe(1);
    expect(countDifferentPixels(a, png(1, [[0, 0, 0]]))).toBe(Number.POSITIVE_INFINITY);
  });
});
