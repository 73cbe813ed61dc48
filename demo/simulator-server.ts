import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toNodeListener } from '../src/proxy/node';
import { DEMO_BOT_ID, OTHER_BOT_ID, createSimulator } from './simulator/index';
import { loadKnowledgeBase } from './simulator/knowledge';
import { loadScenario, type Scenario } from './simulator/scenario';

/** What an owner's own proxy needs to talk to the simulator instead of the Cody API. */
export interface SimulatorServer {
  /** The API base, as `CODY_API_URL` / the proxy's `upstream` takes it: `http://127.0.0.1:8788/api/v1`. */
  apiUrl: string;
  /** The Bearer key the simulator accepts (`CODY_API_KEY`). */
  apiKey: string;
  /** The simulated account's bots: the first answers from the demo knowledge base. */
  botIds: readonly string[];
  close(): Promise<void>;
}

/**
 * The simulator's fixed key. It is no secret: the simulator listens on loopback only by default, and an owner
 * copies the key into their proxy's settings as they would a real one.
 */
export const SANDBOX_KEY = 'askbox-simulator-key';

/**
 * The Cody API simulator alone (`npm run simulator`), for owners trying their own proxy before they have a key:
 * one port serving the API at `/api/v1` and its reply streams at `/stream/…`. The stream host is the API's own, so
 * a proxy pointed at it needs no `streamOrigins`.
 */
export async function startSimulatorServer(
  options: { port?: number; host?: string; scenario?: Scenario } = {},
): Promise<SimulatorServer> {
  const host = options.host ?? '127.0.0.1';
  let handle: ReturnType<typeof toNodeListener> | undefined;
  const server = createServer((req, res) => void (handle ? handle(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server.listen(options.port ?? 8788, host, resolve));
  const { port } = server.address() as AddressInfo;
  // An IPv6 address needs brackets in a URL; the usual loopback is named as the proxy's `upstream` would name it.
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const simulator = createSimulator({
    apiKey: SANDBOX_KEY,
    knowledge: loadKnowledgeBase(fileURLToPath(new URL('./kb', import.meta.url))),
    scenario: options.scenario,
  });
  handle = toNodeListener(simulator.handle);
  return {
    apiUrl: `${origin}/api/v1`,
    apiKey: SANDBOX_KEY,
    botIds: [DEMO_BOT_ID, OTHER_BOT_ID],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const scenarioFile = argument('scenario') ?? process.env.ASKBOX_SCENARIO;
  const sandbox = await startSimulatorServer({
    port: Number(argument('port') ?? process.env.PORT ?? 8788),
    host: argument('host') ?? process.env.HOST,
    scenario: scenarioFile ? loadScenario(scenarioFile) : undefined,
  });
  // Printed as variables an owner can paste before their own proxy's command (the README's recipes read them).
  console.log(`Cody API simulator on ${sandbox.apiUrl}
CODY_API_URL=${sandbox.apiUrl}
CODY_API_KEY=${sandbox.apiKey}
CODY_BOT_ID=${sandbox.botIds[0]}
Bots: ${sandbox.botIds[0]} answers from demo/kb; ${sandbox.botIds[1]} exists too (for a proxy that must refuse it).`);
  process.on('SIGINT', () => void sandbox.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
}
