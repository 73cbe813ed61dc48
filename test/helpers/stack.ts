import { DEMO_BOT_ID } from '../../demo/simulator/index';
import type { Scenario } from '../../demo/simulator/scenario';
import { createChatClient, type ChatClientOptions } from '../../src/api/client';
import { createProxy, type ProxyOptions } from '../../src/proxy/core/proxy';
import { API, SIM_KEY, setupSimulator } from './simulator';

/**
 * The whole server side in-process: a chat client whose fetch goes through the real proxy to the simulator.
 * Relative URLs resolve against a fake page origin, and redirects are followed like a browser's fetch does.
 * Limits are off unless `proxyOptions` sets them; every knowledge-base document may be chosen for focus.
 */
export function setupStack(
  scenario: Scenario = {},
  proxyOptions: Partial<ProxyOptions> = {},
  clientOptions: Partial<ChatClientOptions> = {},
) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 }, ...scenario });
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: 'stack-test-secret-0123456789',
    allowedHosts: ['page.test'],
    limits: false,
    documentIds: sim.documents.map((d) => d.id),
    fetch: (input, init) => sim.handle(new Request(input, init)),
    ...proxyOptions,
  });
  const requests: string[] = [];
  const browserFetch: typeof fetch = async (input, init) => {
    let request = new Request(new URL(String(input), 'http://page.test'), init);
    for (let hops = 0; hops < 5; hops++) {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      const response = await proxy(request);
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) return response;
      // A browser keeps the request's headers across a redirect (the grant among them), less the body's own.
      const headers = new Headers(request.headers);
      headers.delete('content-type');
      request = new Request(new URL(location, request.url), { headers, signal: init?.signal ?? null });
    }
    throw new Error('too many redirects');
  };
  const client = createChatClient({ proxyUrl: '/askbox', fetch: browserFetch, ...clientOptions });
  return { sim, client, requests, botId: DEMO_BOT_ID };
}
