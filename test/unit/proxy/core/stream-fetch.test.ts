import { describe, expect, it } from 'vitest';
import type { StreamHosts } from '../../../../src/proxy/core/hosts';
import { fetchStream } from '../../../../src/proxy/core/stream-fetch';

/** A reply stream's redirects, followed by hand: how many, to where, and when the key goes along. */
const HOSTS: StreamHosts = {
  upstreamOrigin: 'https://api.example',
  streamOrigins: new Set(['https://stream.example']),
  privateUpstream: false,
};

/** A chain of answers by URL; every hop is kept with whether it carried the key. */
function chain(answers: Record<string, () => Response>) {
  const hops: [string, boolean][] = [];
  const hop = async (url: string, withKey: boolean) => {
    hops.push([url, withKey]);
    return (answers[url] ?? (() => new Response('data: [END]\n\n')))();
  };
  return { hops, hop };
}

/** An answer that redirects to `location`. */
const to =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } });

describe('following stream redirects', () => {
  it('follows 3 hops and refuses the fourth', async () => {
    const three = chain({
      'https://api.example/1': to('/2', 301),
      'https://api.example/2': to('/3', 307),
      'https://api.example/3': to('https://api.example/4', 308),
    });
    expect((await fetchStream(new URL('https://api.example/1'), HOSTS, three.hop)).status).toBe(200);
    expect(three.hops.map(([url]) => url)).toEqual([1, 2, 3, 4].map((n) => `https://api.example/${n}`));
    const four = chain({
      'https://api.example/1': to('/2'),
      'https://api.example/2': to('/3'),
      'https://api.example/3': to('/4', 303),
      'https://api.example/4': to('/5'),
    });
    const refused = await fetchStream(new URL('https://api.example/1'), HOSTS, four.hop);
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ message: 'The chat service did not return a stream.' });
    expect(four.hops).toHaveLength(4);
  });

  it('drops the key on the first hop off the service origin, for good', async () => {
    const { hops, hop } = chain({
      'https://api.example/1': to('https://stream.example/2'),
      'https://stream.example/2': to('https://api.example/3'),
    });
    await fetchStream(new URL('https://api.example/1'), HOSTS, hop);
    expect(hops).toEqual([
      ['https://api.example/1', true],
      ['https://stream.example/2', false],
      ['https://api.example/3', false],
    ]);
    // Hops within the service's origin keep it until the first one off it.
    const within = chain({
      'https://api.example/1': to('https://api.example/2'),
      'https://api.example/2': to('https://stream.example/3'),
    });
    await fetchStream(new URL('https://api.example/1'), HOSTS, within.hop);
    expect(within.hops).toEqual([
      ['https://api.example/1', true],
      ['https://api.example/2', true],
      ['https://stream.example/3', false],
    ]);
    const fromStream = chain({});
    await fetchStream(new URL('https://stream.example/1'), HOSTS, fromStream.hop);
    expect(fromStream.hops).toEqual([['https://stream.example/1', false]]);
  });

  it('refuses a hop to an unlisted origin or without a Location, and passes other statuses on', async () => {
    for (const answer of [
      to('https://evil.example/x'),
      to('http://169.254.169.254/'),
      () => new Response(null, { status: 302 }),
    ]) {
      const { hops, hop } = chain({ 'https://api.example/1': answer });
      expect((await fetchStream(new URL('https://api.example/1'), HOSTS, hop)).status).toBe(502);
      expect(hops).toHaveLength(1);
    }
    for (const status of [200, 304, 404]) {
      const { hop } = chain({
        'https://api.example/1': () => new Response(null, { status, headers: { location: '/2' } }),
      });
      expect((await fetchStream(new URL('https://api.example/1'), HOSTS, hop)).status).toBe(status);
    }
  });
});
