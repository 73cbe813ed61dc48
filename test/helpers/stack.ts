import { DEMO_BOT_ID } from '../../demo/simulator/index';
import type { Scenario } from '../../demo/simulator/scenario';
import { createChatClient } from '../../src/api/client';
import { createProxy } from '../../src/proxy/handler';
import { API, SIM_KEY, setupSimulator } from './simulator';

/**
 * The whole server side in-process: a chat client whose fetch goes through the real proxy to the simulator.
 * Relative URLs resolve against a fake page origin, and redirects are followed like a browser's fetch does.
 */
export function setupStack(scenario: Scenario = {}) {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 }, ...scenario });
  const proxy = createProxy({ apiKey: SIM_KEY, botIds: [DEMO_BOT_ID], upstream: API, fetch: (input, init) => sim.handle(new Request(input, init)) });
  const requests: string[] = [];
  const browserFetch: typeof fetch = async (input, init) => {
    let request = new Request(new URL(String(input), 'http://page.test'), init);
    for (let hops = 0; hops < 5; hops++) {
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      const response = await proxy(request);
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) return response;
      request = new Request(new URL(location, request.url), { signal: init?.signal ?? null });
    }
    throw new Error('too many redirects');
  };
  const client = createChatClient({ proxyUrl: '/askbox', fetch: browserFetch });
  return { sim, client, requests, botId: DEMO_BOT_ID };
}
