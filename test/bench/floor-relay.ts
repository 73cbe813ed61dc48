// The floor of the proxy load benchmark: a reverse proxy on node:http with no policy at all. It stands for what
// relaying these HTTP exchanges costs Node itself, and only that: no validation, no grants, no limits, no sealed
// stream URLs, no deadlines, no telemetry. Each request is forwarded as it came (its Host too, so the simulator's
// stream URLs point back here) over kept-alive connections, and the answer's status, headers and body are piped back.
// Never a model to deploy: it forwards anything to the service, key included.
import { Agent, request, type IncomingMessage, type RequestListener } from 'node:http';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { nodeFetch } from '../../src/proxy/adapters/node/node-fetch';
import { watchBody } from '../../src/proxy/core/upstream';

/** Headers of one connection, not of the exchange: each side of the relay sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** A request listener that relays every request to `upstream` (an origin such as `http://127.0.0.1:8788`). */
export function floorRelay(upstream: string): RequestListener {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  return (req, res) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer: IncomingMessage) => {
        const headers = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
        res.writeHead(answer.statusCode ?? 502, Object.fromEntries(headers));
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    // A visitor gone before the end: the service's exchange is dropped too, as the proxy drops it.
    res.on('close', () => {
      if (!res.writableFinished) forwarded.destroy();
    });
    req.pipe(forwarded);
  };
}

/** A reply stream's deadlines, far off: the floor keeps the deadline machinery, not its verdicts. */
const FAR = { firstMs: 600_000, idleMs: 600_000, totalMs: 600_000 };

/**
 * The floor of the proxy's own design: the same relay as `floorRelay`, but as a fetch-standard handler on the Node
 * adapter (`toNodeListener`, `nodeFetch`, a reply stream watched by the core and so relayed natively), with no
 * policy either. What it costs over `floorRelay` is what a fetch-standard core costs on Node before any rule;
 * what the proxy costs over it is its policy.
 */
export function fetchFloorRelay(upstream: string): RequestListener {
  return toNodeListener(async (asked) => {
    const { pathname, search } = new URL(asked.url);
    const { method } = asked;
    const answer = await nodeFetch(`${upstream}${pathname}${search}`, {
      method,
      headers: asked.headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : await asked.text(),
      redirect: 'manual',
    });
    if (!answer.body || !answer.headers.get('content-type')?.startsWith('text/event-stream')) return answer;
    const body = watchBody(answer.body, FAR, { onTimeout: () => undefined, onFirst: () => undefined });
    return new Response(body, { status: answer.status, headers: answer.headers });
  });
}
