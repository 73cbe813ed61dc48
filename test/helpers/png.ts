import { inflateSync } from 'node:zlib';

/** A decoded 8-bit RGB or RGBA PNG (what Chromium's screenshots are). */
export interface Pixels {
  width: number;
  height: number;
  channels: number;
  data: Uint8Array;
}

/** Decodes a non-interlaced 8-bit truecolour PNG, undoing the per-row filters. */
export function decodePng(png: Uint8Array): Pixels {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      channels = body[9] === 6 ? 4 : 3;
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0)
        throw new Error('decodePng: only 8-bit RGB(A), non-interlaced');
    }
    if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const data = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const a = x >= channels ? (data[y * stride + x - channels] ?? 0) : 0;
      const b = y > 0 ? (data[(y - 1) * stride + x] ?? 0) : 0;
      const c = x >= channels && y > 0 ? (data[(y - 1) * stride + x - channels] ?? 0) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter ?? 0] ?? 0;
      data[y * stride + x] = (value + predictor) & 255;
    }
  }
  return { width, height, channels, data };
}

/** How many pixels differ by more than `tolerance` in any channel (Infinity when the sizes differ). */
export function countDifferentPixels(first: Uint8Array, second: Uint8Array, tolerance = 32): number {
  const a = decodePng(first);
  const b = decodePng(second);
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return Number.POSITIVE_INFINITY;
  let different = 0;
  for (let i = 0; i < a.data.length; i += a.channels) {
    for (let k = 0; k < a.channels; k++) {
      if (Math.abs((a.data[i + k] ?? 0) - (b.data[i + k] ?? 0)) > tolerance) {
        different++;
        break;
      }
    }
  }
  return different;
}
