import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { webBody } from '../../../../../src/proxy/adapters/node/web-body';

/** A stand-in for a `node:http` body: a stream with the `complete` flag node:http sets once the body ended whole. */
function source() {
  const stream = Object.assign(new PassThrough(), { complete: false });
  stream.once('end', () => (stream.complete = true));
  return stream;
}
const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe('webBody', () => {
  it('reads nothing until read, then one chunk per read, and ends with its source', async () => {
    const from = source();
    let told = 0;
    const body = webBody(from as unknown as IncomingMessage, () => told++);
    from.write('one');
    from.write('two');
    from.end();
    await new Promise((resolve) => setImmediate(resolve));
    // Unread, the source is left as it was: still relayable natively.
    expect([from.readableFlowing, told]).toEqual([null, 0]);
    const reader = body.getReader();
    expect(text((await reader.read()).value)).toBe('one');
    expect(text((await reader.read()).value)).toBe('two');
    expect((await reader.read()).done).toBe(true);
    expect(told).toBe(1);
  });

  it('errors when its source closes before its end, as fetch reports a cut body', async () => {
    const from = source();
    const reader = webBody(from as unknown as IncomingMessage).getReader();
    from.write('part');
    expect(text((await reader.read()).value)).toBe('part');
    from.destroy();
    await expect(reader.read()).rejects.toThrow(new TypeError('terminated'));
  });

  it('destroys its source when cancelled', async () => {
    const from = source();
    await webBody(from as unknown as IncomingMessage).cancel();
    expect(from.destroyed).toBe(true);
  });
});
