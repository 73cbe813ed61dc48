import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createParser } from 'eventsource-parser';
import { ChatError } from '../../../src/api/errors';
import { readReplyStream } from '../../../src/api/sse';
import type { StreamEvent } from '../../../src/api/types';
import { replyEvents, splitBytes, streamOf } from '../../fixtures/sse';

async function collect(
  body: ReadableStream<Uint8Array>,
  idleMs?: number,
  signal?: AbortSignal,
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readReplyStream(body, idleMs, signal)) events.push(event);
  return events;
}

/** A body that sends `text` and stays open, recording whether the reader let go of it (the connection's release). */
function openBody(text: string) {
  const released = { value: false };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
    },
    cancel() {
      released.value = true;
    },
  });
  return { body, released };
}

afterEach(() => {
  vi.useRealTimers();
});

const text = (events: StreamEvent[]) => events.map((e) => (e.type === 'chunk' ? e.text : '')).join('');

describe('readReplyStream', () => {
  it('decodes [START], chunks and [END]', async () => {
    const events = await collect(streamOf([replyEvents(['Hello', ', ', 'world'])]));
    expect(events).toEqual([
      { type: 'start' },
      { type: 'chunk', text: 'Hello' },
      { type: 'chunk', text: ', ' },
      { type: 'chunk', text: 'world' },
      { type: 'end' },
    ]);
  });

  it.each([1, 2, 3, 5, 7, 13])('survives the bytes arriving %i at a time, multibyte characters split', async (size) => {
    const reply = 'Grüße 👋 — 你好, naïve café: `code` ✓';
    const events = await collect(streamOf(splitBytes(replyEvents(Array.from(reply)), size)));
    expect(text(events)).toBe(reply);
    expect(events.at(-1)).toEqual({ type: 'end' });
  });

  it('accepts CRLF and CR line endings and a byte-order mark', async () => {
    expect(text(await collect(streamOf([replyEvents(['a', 'b'], '\r\n')])))).toBe('ab');
    expect(text(await collect(streamOf([replyEvents(['a', 'b'], '\r')])))).toBe('ab');
    expect(text(await collect(streamOf(['\uFEFF' + replyEvents(['bom'])])))).toBe('bom');
  });

  it('keeps newlines and markdown inside chunks', async () => {
    const chunks = ['```js\n', 'const a = 1;\n', '```\n\n- item'];
    expect(text(await collect(streamOf([replyEvents(chunks)])))).toBe(chunks.join(''));
  });

  it('ignores comments, named fields and JSON events without a chunk', async () => {
    const raw =
      ': keep-alive\n\nretry: 1000\n\ndata: [START]\n\ndata: {"chunk":"x","extra":1}\n\ndata: {"usage":{"tokens":3}}\n\ndata: [END]\n\n';
    expect(await collect(streamOf([raw]))).toEqual([{ type: 'start' }, { type: 'chunk', text: 'x' }, { type: 'end' }]);
  });

  it('dispatches a last event that lacks its blank line', async () => {
    expect(await collect(streamOf(['data: [START]\n\ndata: {"chunk":"x"}\n\ndata: [END]\n']))).toHaveLength(3);
  });

  it('stops reading at [END] even if the server keeps the connection open', async () => {
    const events = await collect(streamOf([replyEvents(['done'])], { close: false }));
    expect(events.at(-1)).toEqual({ type: 'end' });
  });

  it('reads [START] and [END] with spaces around them', async () => {
    const raw = 'data:  [START] \n\ndata: {"chunk":"x"}\n\ndata: \t[END]  \n\n';
    expect(await collect(streamOf([raw]))).toEqual([{ type: 'start' }, { type: 'chunk', text: 'x' }, { type: 'end' }]);
  });

  it('throws a stream error when the connection closes before [END]', async () => {
    const cut = 'data: [START]\n\ndata: {"chunk":"partial"}\n\n';
    await expect(collect(streamOf([cut]))).rejects.toMatchObject({
      name: 'ChatError',
      kind: 'stream',
      message: 'The reply stream ended before [END]',
    });
  });

  it('throws a stream error on an undecodable event, with the parser\u2019s error as its cause', async () => {
    const failure = await collect(streamOf(['data: [START]\n\ndata: {not json\n\n'])).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatError);
    expect(failure).toMatchObject({
      kind: 'stream',
      message: 'Undecodable stream event',
      cause: expect.any(SyntaxError),
    });
  });

  it.each([
    [
      'after [END]',
      'data: [START]\n\ndata: [END]\n\n',
      async (events: AsyncGenerator<StreamEvent>) => {
        for await (const event of events) void event;
      },
    ],
    [
      'when the reader stops early',
      'data: [START]\n\ndata: {"chunk":"x"}\n\n',
      async (events: AsyncGenerator<StreamEvent>) => {
        for await (const event of events) if (event.type === 'start') break;
      },
    ],
    [
      'on an undecodable event',
      'data: [START]\n\ndata: {not json\n\n',
      async (events: AsyncGenerator<StreamEvent>) => {
        await expect(events.next().then(() => events.next())).rejects.toMatchObject({ kind: 'stream' });
      },
    ],
  ])('releases a connection left open %s', async (_, sent, consume) => {
    const { body, released } = openBody(sent);
    await consume(readReplyStream(body));
    expect(released.value).toBe(true);
  });

  it('throws an aborted error, without reading, for a signal aborted before the first read', async () => {
    const controller = new AbortController();
    controller.abort();
    const { body, released } = openBody('data: [START]\n\n');
    const events: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of readReplyStream(body, 10_000, controller.signal)) events.push(event);
      })(),
    ).rejects.toMatchObject({ name: 'ChatError', kind: 'aborted', message: 'Aborted' });
    expect([events, released.value]).toEqual([[], true]);
  });

  it('throws an aborted error at once when the signal aborts during a silent read', async () => {
    const controller = new AbortController();
    const { body } = openBody('data: [START]\n\n');
    const events: StreamEvent[] = [];
    const reading = (async () => {
      for await (const event of readReplyStream(body, 2_000, controller.signal)) {
        events.push(event);
        setTimeout(() => controller.abort(), 10);
      }
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'aborted', message: 'Aborted' });
    expect(events).toEqual([{ type: 'start' }]);
  });

  it('leaves no idle timer and no abort listener behind once the reply is read', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const signal = new AbortController().signal;
    const events = await collect(streamOf(splitBytes(replyEvents(['a', 'b', 'c']), 4)), 45_000, signal);
    expect(events).toHaveLength(5);
    expect([vi.getTimerCount(), getEventListeners(signal, 'abort').length]).toEqual([0, 0]);
  });

  it('throws a stream error when the stream stalls past the idle timeout', async () => {
    const stalled = streamOf(['data: [START]\n\ndata: {"chunk":"a"}\n\n'], { close: false });
    await expect(collect(stalled, 50)).rejects.toMatchObject({
      kind: 'stream',
      message: expect.stringMatching(/No data/),
    });
  });
});

/** The data of the events in `pieces`, fed one by one. */
function parse(pieces: string[]): string[] {
  const events: string[] = [];
  const parser = createParser({ onEvent: ({ data }) => void events.push(data) });
  for (const piece of pieces) parser.feed(piece);
  return events;
}

describe('eventsource-parser: the event-stream framing readReplyStream relies on', () => {
  it('joins data lines with LF, drops one space after the colon, and dispatches at a blank line', () => {
    expect(parse(['data: a\ndata:b\ndata:  c\ndata\n\n'])).toEqual(['a\nb\n c\n']);
  });

  it('dispatches nothing for a block without data: comments, other fields, blank lines', () => {
    expect(parse([': hi\n\nevent: x\nid: 1\nretry: 5\n\n\n\ndata: y\n\n'])).toEqual(['y']);
  });

  it('takes a CRLF split across two pieces as one line ending, and CR alone as a line ending', () => {
    expect(parse(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual(['a\nb']);
    // A final CR may be the first half of a CRLF: the blank line it ends is known with the next piece.
    expect(parse(['data: a\r\rdata: b\r', '\r'])).toEqual(['a']);
    expect(parse(['data: a\r\rdata: b\r', '\r', 'data: c\r\r'])).toEqual(['a', 'b']);
  });

  it('waits for the end of a line split anywhere, and keeps a field name that only starts with "data"', () => {
    const raw = 'data: {"chunk":"x"}\n\ndatum: no\ndata: [END]\n\n';
    expect(parse(Array.from(raw))).toEqual(['{"chunk":"x"}', '[END]']);
  });
});
