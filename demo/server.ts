import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProxy, type ProxyOptions } from '../src/proxy/index';
import { nodeAesGcm, toNodeListener } from '../src/proxy/node';
import { DEMO_BOT_ID, createSimulator, type Simulator } from './simulator/index';
import { loadKnowledgeBase } from './simulator/knowledge';
import { loadScenario, type Scenario } from './simulator/scenario';

export interface DemoServerOptions {
  port?: number;
  /** The interface to listen on (default `127.0.0.1`: the simulator's fixed key must not reach the network). */
  host?: string;
  /** Where the pages' widgets find the proxy (default: this server's own `/askbox`); tests point it at another runtime. */
  proxyUrl?: string;
  /** Signs grants (`ASKBOX_SECRET`); default: random per run, so conversations end with the demo. */
  secret?: string | undefined;
  /** Verifies signed-in visitors (`ASKBOX_IDENTITY_SECRET`); default: DEMO_IDENTITY_SECRET, a fixed demo secret. */
  identitySecret?: string | undefined;
  /** Proxy options over the demo's own (limits, timeouts…), for tests. */
  proxy?: Partial<ProxyOptions>;
  /** Scripted replies for the simulator. */
  scenario?: Scenario;
  /** A real Cody API key: the proxy then talks to the real service instead of the simulator. */
  apiKey?: string | undefined;
  /** The real service's base URL (default https://getcody.ai/api/v1). */
  upstream?: string | undefined;
  /** The bot the pages embed; required with a real key. */
  botId?: string | undefined;
  /**
   * A script every page runs first, with the page's nonce (tests: an error recorder in engines whose driver has no
   * console API).
   */
  headScript?: string;
}

export interface DemoServer {
  url: string;
  /** The interface it listens on. */
  address: string;
  /** The simulator, when the demo runs without a real key. */
  simulator: Simulator | undefined;
  /** Cuts every open connection, replies being streamed too, as a lost network does (tests of a dropped reply). */
  dropConnections(): void;
  close(): Promise<void>;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SIMULATOR_KEY = 'askbox-simulator-key';
/** The demo's identity secret when ASKBOX_IDENTITY_SECRET is unset: public, for the demo only, never for a site. */
export const DEMO_IDENTITY_SECRET = 'askbox-demo-identity-secret';
const PAGES = new Set([
  'index',
  'de',
  'csp',
  'hostile',
  'plain',
  'misconfigured',
  'dynamic',
  'twice',
  'left-dark',
  'rtl',
  'queue',
  'overflow',
  'inline',
  'element',
  'two',
  'spa',
  'whole',
  'debug',
  'rules',
  'signed-in',
]);

/**
 * The demo: host pages, the widget bundle, the token proxy at /askbox and — without a real key — the Cody API
 * simulator at /sim, all in one Node process. Like the real service, the simulator streams replies from a host of
 * its own (another port), so the proxy's rule that the key never goes to a stream host runs for real.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const real = Boolean(options.apiKey);
  if (real && !options.botId)
    throw new Error('CODY_BOT_ID is required with CODY_API_KEY: the id of the bot the demo pages embed');
  const botId = options.botId ?? DEMO_BOT_ID;
  const host = options.host ?? '127.0.0.1';
  const streams = real
    ? undefined
    : await listen(
        createServer(
          (req, res) => void (simulator ? toNodeListener(simulator.handle)(req, res) : res.writeHead(503).end()),
        ),
        host,
        0,
      );
  const simulator = streams
    ? createSimulator({
        apiKey: SIMULATOR_KEY,
        basePath: '/sim',
        streamOrigin: `http://127.0.0.1:${streams.port}`,
        knowledge: loadKnowledgeBase(here('./kb')),
        scenario: options.scenario,
      })
    : undefined;
  let proxy: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;

  const identitySecret = options.identitySecret ?? DEMO_IDENTITY_SECRET;
  const server = createServer((req, res) => {
    const address = new URL(req.url ?? '/', 'http://localhost');
    const path = address.pathname;
    if (path.startsWith('/askbox/') && proxy) return void proxy(req, res);
    if (path.startsWith('/sim/') && simulator) return void toNodeListener(simulator.handle)(req, res);
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/demo.css') return serveFile(res, here('./pages/demo.css'), 'text/css; charset=utf-8');
    if (path === '/askbox.js' || path === '/askbox-debug.js' || /^\/askbox-(chat|code|math)\.[\w-]+\.js$/.test(path))
      return serveFile(res, here(`../dist${path}`), 'text/javascript; charset=utf-8');
    const pack = /^\/askbox-locales\/([a-z]{2})\.json$/.exec(path)?.[1];
    if (pack) return serveFile(res, here(`../dist/askbox-locales/${pack}.json`), 'application/json; charset=utf-8');
    // The page-rules demo answers on the paths its buttons navigate to, so that a reload keeps the path.
    const proxyUrl = options.proxyUrl ?? '/askbox';
    if (/^\/(products|checkout|help)(\/|$)/.test(path)) return servePage(res, { page: 'rules', botId, proxyUrl });
    const page = path === '/' ? 'index' : path.replace(/^\/|\.html$/g, '');
    const user = page === 'signed-in' ? address.searchParams.get('user') : null;
    const fills = { USER: user ? signedIn(user, identitySecret) : '', USER_NAME: escapeHtml(user ?? 'nobody') };
    if (PAGES.has(page)) return servePage(res, { page, botId, proxyUrl, headScript: options.headScript, fills });
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  const { port } = await listen(server, host, options.port ?? 5173);
  const url = `http://${['127.0.0.1', '::1', '0.0.0.0', '::'].includes(host) ? 'localhost' : host}:${port}`;
  proxy = toNodeListener(
    createProxy({
      apiKey: options.apiKey ?? SIMULATOR_KEY,
      botIds: [botId],
      upstream: real ? options.upstream : `http://127.0.0.1:${port}/sim/api/v1`,
      // The simulator streams from a port of its own, as the real service streams from a host of its own.
      ...(streams && { streamOrigins: [`http://127.0.0.1:${streams.port}`] }),
      secret: options.secret ?? randomHex(32),
      identitySecret,
      // Stream tokens sealed on node:crypto, as the README's Node recipes seal them: the same tokens, less CPU.
      aesGcm: nodeAesGcm,
      log: (entry) => entry.level !== 'info' && console.error('[proxy]', JSON.stringify(entry)),
      ...options.proxy,
    }),
  );
  return {
    url,
    address: (server.address() as AddressInfo).address,
    simulator,
    dropConnections: () => {
      server.closeAllConnections();
      streams?.server.closeAllConnections();
    },
    close: () => Promise.all([stop(server), streams && stop(streams.server)]).then(() => undefined),
  };
}

async function listen(server: Server, host: string, port: number): Promise<{ server: Server; port: number }> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function serveFile(res: ServerResponse, file: string, type: string) {
  try {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' }).end(readFileSync(file));
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Build the widget first: npm run build');
  }
}

function randomHex(bytes: number): string {
  return crypto.getRandomValues(new Uint8Array(bytes)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), '');
}

/** What goes into `&`, `<`, `>` and `"` safe HTML text and attribute values. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The tag's attributes for a signed-in visitor, as a site's server writes them: the person's id, and its HMAC-SHA256
 * with the identity secret the proxy shares, in hex (README, "Signed-in visitors").
 */
function signedIn(id: string, secret: string): string {
  const hash = createHmac('sha256', secret).update(id, 'utf8').digest('hex');
  return `data-user-id="${escapeHtml(id)}" data-user-hash="${hash}"`;
}

interface PageOptions {
  page: string;
  botId: string;
  proxyUrl: string;
  headScript?: string | undefined;
  /** `{{NAME}}` placeholders the page holds, with what replaces them (HTML, already escaped). */
  fills?: Record<string, string>;
}

function servePage(res: ServerResponse, { page, botId, proxyUrl, headScript, fills = {} }: PageOptions) {
  const nonce = randomHex(16);
  const first = headScript === undefined ? '' : `<script nonce="{{NONCE}}">${headScript}</script>`;
  let html = readFileSync(here(`./pages/${page}.html`), 'utf8')
    .replace('<head>', `<head>${first}`)
    .replaceAll('{{BOT_ID}}', botId)
    .replaceAll('{{PROXY_URL}}', proxyUrl)
    .replaceAll('{{NONCE}}', nonce);
  // Last, so that a visitor's text in them (a `?user=`) is never read as a placeholder.
  for (const [name, value] of Object.entries(fills)) html = html.replaceAll(`{{${name}}}`, value);
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
  if (page === 'csp') {
    headers['content-security-policy'] =
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  }
  res.writeHead(200, headers).end(html);
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const scenarioFile = argument('scenario') ?? process.env.ASKBOX_SCENARIO;
  const demo = await startDemoServer({
    port: Number(argument('port') ?? process.env.PORT ?? 5173),
    host: argument('host') ?? process.env.HOST,
    secret: process.env.ASKBOX_SECRET,
    identitySecret: process.env.ASKBOX_IDENTITY_SECRET,
    scenario: scenarioFile ? loadScenario(scenarioFile) : undefined,
    apiKey: process.env.CODY_API_KEY,
    upstream: process.env.CODY_API_URL,
    botId: process.env.CODY_BOT_ID,
  });
  console.log(
    `Askbox demo on ${demo.url} — ${demo.simulator ? 'using the local Cody API simulator' : 'proxying to the real Cody API'}`,
  );
  if (scenarioFile) console.log(`Scenario: ${scenarioFile}`);
  if (!process.env.ASKBOX_IDENTITY_SECRET)
    console.log(
      `Signed-in visitors: the fixed demo identity secret "${DEMO_IDENTITY_SECRET}" (set ASKBOX_IDENTITY_SECRET)`,
    );
  process.on('SIGINT', () => void demo.close().then(() => process.exit(0)));
}
