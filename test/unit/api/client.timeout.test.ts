import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../../src/api/client';

/** A proxy whose reply stream starts, sends one chunk and then goes silent with the connection open. */
const silentStream = async () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: [START]\n\ndata: {"chunk":"Half"}\n\n'));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

describe('chat client: the stream timeout', () => {
  it('gives up on a silent stream after the configured idle time', async () => {
    const client = createChatClient({ proxyUrl: '/askbox', fetch: silentStream, idleMs: 60 });
    const events: string[] = [];
    const started = Date.now();
    const reading = (async () => {
      for await (const event of client.streamReply(
        { conversation: { id: 'conv0000000a', grant: 'g' }, content: 'q' },
        new AbortController().signal,
      ))
        events.push(event.type);
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'stream', message: 'No data for 60 ms' });
    expect(events).toEqual(['start', 'chunk']);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
