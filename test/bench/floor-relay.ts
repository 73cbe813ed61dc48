// The floor of the proxy load benchmark: a reverse proxy on node:http with no policy at all. It stands for what
// relaying these HTTP exchanges costs Node itself, and only that: no validation, no grants, no limits, no sealed
// stream URLs, no deadlines, no telemetry. Each request is forwarded as it came (its Host too, so the simulator's
// stream URLs point back here) over kept-alive connections, and the answer's status, headers and body are piped back.
// Never a model to deploy: it forwards anything to the service, key included.
import { Agent, request, type IncomingMessage, type RequestListener } from 'node:http';

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
