import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type MountOptions, type WidgetHandle } from '../../../src/mount/mount';
import { IDENTITY } from '../../../src/protocol/contract';

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };
const ALICE = { id: 'alice', hash: 'a'.repeat(64) };
const BOB = { id: 'bob', hash: 'b'.repeat(64) };

/**
 * The proxy, faked at `fetch`: a new conversation, a reply stream, an empty list; every request's path and identity
 * headers recorded as `who` (`alice`, or `-` for none).
 */
function fakeProxy() {
  const seen: string[] = [];
  let conversations = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const headers = new Headers(init?.headers);
    const path = new URL(String(url), location.href).pathname;
    const who = headers.get(IDENTITY.userHeader) ?? '-';
    seen.push(`${init?.method ?? 'GET'} ${path} ${who}${headers.get(IDENTITY.hashHeader) ? '+hash' : ''}`);
    if (path.endsWith('/challenge')) return new Response(null, { status: 204 });
    if (path.endsWith('/messages/stream'))
      return new Response('data: [START]\n\ndata: {"chunk":"Hi"}\n\ndata: [END]\n\n', {
        headers: { 'content-type': 'text/event-stream' },
      });
    if (path.endsWith('/conversations') && init?.method === 'POST')
      return Response.json({
        data: { id: `conv0000000${++conversations}` },
        meta: { grant: `grant-${conversations}` },
      });
    return Response.json({ data: [] });
  });
  /** Whom the requests since the last `clear()` went as: each identity once. */
  const people = () => [...new Set(seen.map((line) => line.split(' ')[2]))];
  /** How many conversations were created since the last `clear()`. */
  const created = () => seen.filter((line) => line.startsWith('POST /askbox/conversations ')).length;
  return { seen, people, created, clear: () => void (seen.length = 0) };
}

const mounted: WidgetHandle[] = [];
const start = (options: MountOptions) => {
  const handle = mount(options);
  mounted.push(handle);
  return handle;
};

afterEach(() => {
  for (const handle of mounted.splice(0)) handle.destroy();
  vi.restoreAllMocks();
  document.body.replaceChildren();
  localStorage.clear();
  sessionStorage.clear();
});

/** The keys Askbox holds in both storage areas. */
const askboxKeys = () =>
  [localStorage, sessionStorage].flatMap((area) => Object.keys(area).filter((key) => key.startsWith('askbox')));

describe('identify() and reset() on the handle', () => {
  it('sends as the person mount() signs in, then as the one identify() names, then as no one after reset()', async () => {
    const proxy = fakeProxy();
    const chat = start({ ...minimal, user: ALICE });
    await chat.send('one');
    expect([proxy.people(), proxy.created()]).toEqual([['alice+hash'], 1]);
    // Nothing about the person stays in the browser (the open panel's state is the tab's, and reset() forgets it).
    expect(askboxKeys().filter((key) => !key.includes(':open:'))).toEqual([]);

    proxy.clear();
    chat.identify(BOB);
    await chat.send('two');
    expect([proxy.people(), proxy.created()]).toEqual([['bob+hash'], 1]);

    proxy.clear();
    chat.reset();
    expect(askboxKeys()).toEqual([]);
    await chat.send('three');
    expect([proxy.people(), proxy.created()]).toEqual([['-'], 1]);
    // Anonymous again, the conversation is this browser's.
    expect(askboxKeys()).toContain('askbox:v1:conversation:yiu456ytyUjk@/askbox');
  });

  it('identify() with the same person keeps their chat; a malformed pair is one console error and anonymous', async () => {
    const proxy = fakeProxy();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const chat = start({ ...minimal, user: ALICE });
    await chat.send('one');
    const closes = vi.fn();
    chat.on('close', closes);
    chat.identify({ ...ALICE });
    expect(closes).not.toHaveBeenCalled();
    proxy.clear();
    await chat.send('two');
    // The same conversation: no new one created.
    expect([proxy.people(), proxy.created()]).toEqual([['alice+hash'], 0]);

    chat.identify({ id: 'alice' } as never);
    expect(closes).toHaveBeenCalledOnce();
    expect(error.mock.calls).toEqual([
      [expect.stringMatching(/^\[askbox\] identify\(\) takes \{ id, hash \}.*anonymous$/)],
    ]);
    proxy.clear();
    await chat.send('three');
    expect([proxy.people(), proxy.created()]).toEqual([['-'], 1]);
  });

  it('mount() with half a pair logs one console error and mounts anonymous', async () => {
    const proxy = fakeProxy();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const chat = start({ ...minimal, user: { id: 'alice' } });
    expect(error.mock.calls).toEqual([[expect.stringMatching(/^\[askbox\] mount\(\)'s user must both be given/)]]);
    await chat.send('one');
    expect([proxy.people(), proxy.created()]).toEqual([['-'], 1]);
  });
});
