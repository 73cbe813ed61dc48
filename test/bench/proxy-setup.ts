// A stream's set-up, through the proxy and through the floor (see floor-relay.ts): the relay's CPU per short reply
// stream (a send answered with a stream URL, then that URL read to its end: two requests in, two out, and a reply of
// a few dozen chunks), in alternating rounds so that a loaded machine weighs on both alike. CPU time of the relay's
// process (process.cpuUsage), not wall time.
import { keyedSide, proxySide, cpuMs, type Server } from './proxy-report';
import { oneStream, type Side } from './proxy-streams';

const ROUNDS = 8;
const PER_ROUND = 60;
/** Streams in flight at once: a few visitors, not a crowd. */
const AT_ONCE = 4;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** `count` short streams on `side`, `AT_ONCE` at a time; throws unless each arrives whole. */
async function shortStreams(side: Side, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next++ < count) {
      // Any message the scenario does not match gets the simulator's knowledge-base answer at once.
      const stream = await oneStream(side, 'set-up');
      if (!stream.whole) throw new Error(`${side.base}: a short stream arrived cut (${stream.status})`);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

/** The relay's CPU ms per stream, over one round of `count` streams. */
async function perStream(relay: Server, side: Side, count: number): Promise<number> {
  const before = await cpuMs(relay.process);
  await shortStreams(side, count);
  return ((await cpuMs(relay.process)) - before) / count;
}

/**
 * Median CPU per short stream (its set-up, mostly) of the proxy, the floor and the fetch-standard floor, over
 * `ROUNDS` alternating rounds after one to warm up; prints them, the proxy's verdict (goal: ≤ 1.3× the floor's), and
 * how the cost splits between the fetch-standard design and the proxy's policy.
 */
export async function setupCosts(
  servers: {
    simulator: Server;
    proxy: Server;
    floor: Server;
    fetchFloor: Server;
    proxyWeb?: Server;
    before?: Server & { dir: string };
  },
  key: string,
) {
  const relays = [
    { what: 'through the proxy', server: servers.proxy, side: await proxySide(servers.proxy.url), ms: [] as number[] },
    {
      what: 'through the floor (Node, no policy)',
      server: servers.floor,
      side: await keyedSide(servers.floor.url, key),
      ms: [] as number[],
    },
    {
      what: 'through the fetch-standard floor (the Node adapter, no policy)',
      server: servers.fetchFloor,
      side: await keyedSide(servers.fetchFloor.url, key),
      ms: [] as number[],
    },
  ];
  if (servers.proxyWeb)
    relays.push({
      what: 'through the proxy, sealing with Web Crypto',
      server: servers.proxyWeb,
      side: await proxySide(servers.proxyWeb.url),
      ms: [],
    });
  if (servers.before)
    relays.push({
      what: `through the proxy of ${servers.before.dir}`,
      server: servers.before,
      side: await proxySide(servers.before.url),
      ms: [],
    });
  for (let round = -1; round < ROUNDS; round++)
    for (const relay of round % 2 ? relays : [...relays].reverse()) {
      const ms = await perStream(relay.server, relay.side, PER_ROUND);
      if (round >= 0) relay.ms.push(ms);
    }
  const [proxy, floor, fetchFloor] = relays.map((relay) => median(relay.ms)) as [number, number, number];
  console.log(
    `\nA stream's set-up: relay CPU per short stream (median of ${ROUNDS} alternating rounds of ${PER_ROUND})`,
  );
  console.table(
    relays.map((relay) => ({
      what: relay.what,
      'CPU ms per stream': median(relay.ms).toFixed(3),
      '× floor': `×${(median(relay.ms) / floor).toFixed(2)}`,
    })),
  );
  const ratio = proxy / floor;
  console.log(`set-up CPU, proxy / floor: ×${ratio.toFixed(2)} (target ≤ ×1.3: ${ratio <= 1.3 ? 'met' : 'NOT met'})`);
  // The target against the floor of the design itself: a fetch-standard relay with no rule costs this much already.
  console.log(
    `fetch-standard floor / floor: ×${(fetchFloor / floor).toFixed(2)}; proxy / fetch-standard floor (its policy): ×${(proxy / fetchFloor).toFixed(2)}`,
  );
}
