// The host pages of the browser benchmark, on a node:http server of their own: a blank page with no script, the same
// page with one build's <script> tag, and every /askbox/ request passed on to the demo server's proxy. The pages and
// the proxy share one origin, as on a site that mounts the proxy under its own path: no CORS preflight adds requests
// that a real embed would not make.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The widget attributes every page uses; the history benchmark stores its conversation under this proxy URL. */
export const PROXY_PATH = '/askbox';

/** A page without Askbox, to subtract from, or with one of the builds under test. */
export type Variant = { kind: 'blank' } | { kind: 'build'; index: number };

export interface BenchHost {
  url(variant: Variant): string;
  close(): Promise<void>;
}

function page(script: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>Host</title></head>
  <body>
    <main><h1>A host page</h1><p>Some text that the widget sits next to.</p></main>
    ${script}
  </body>
</html>`;
}

/** Passes one request to `target` (the demo server) and streams its answer back, Host header untouched. */
function forward(req: IncomingMessage, res: ServerResponse, target: URL) {
  const upstream = request(
    // The demo server listens on 127.0.0.1 only; "localhost" could resolve to ::1 first.
    { hostname: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  // A visitor who leaves (a closed context) cancels the reply stream upstream too.
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/**
 * Serves `builds` (the scripts' text, read once so a rebuild during the run changes nothing; after the builds under
 * test, the boot's reference launchers) at /build/<i>.js and
 * their pages at /page/<i>, the blank page at /page/blank, the files a launcher loads from next to itself (`files`,
 * by name: the chat file) at /build/<name>, and forwards /askbox/ to `demoUrl`.
 */
export async function startBenchHost(
  builds: readonly string[],
  botId: string,
  demoUrl: string,
  files: Readonly<Record<string, string>> = {},
): Promise<BenchHost> {
  const target = new URL(demoUrl);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path.startsWith(`${PROXY_PATH}/`)) return forward(req, res, target);
    const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    if (path === '/page/blank') return void res.writeHead(200, html).end(page(''));
    const file = path.startsWith('/build/') ? files[path.slice('/build/'.length)] : undefined;
    if (file !== undefined)
      return void res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(file);
    const match = /^\/(page|build)\/(\d+)(\.js)?$/.exec(path);
    const build = match ? builds[Number(match[2])] : undefined;
    if (match?.[1] === 'build' && match[3] && build !== undefined) {
      return void res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(build);
    }
    if (match?.[1] === 'page' && !match[3] && build !== undefined) {
      const tag = `<script src="/build/${match[2]}.js" data-bot-id="${botId}" data-proxy-url="${PROXY_PATH}" data-theme="light" async></script>`;
      return void res.writeHead(200, html).end(page(tag));
    }
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (variant) => `${origin}/page/${variant.kind === 'blank' ? 'blank' : variant.index}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
