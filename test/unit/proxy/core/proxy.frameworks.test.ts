import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy } from '../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../src/proxy/adapters/node/node';
import { API, SIM_KEY, setupSimulator } from '../../../helpers/simulator';

/** The README's Express and Fastify snippets, run as written, around the proxy in front of the simulator. */
function proxyForTest() {
  const { sim } = setupSimulator({ defaults: { delayMs: 0 } });
  return createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: 'framework-secret-0123456789',
    fetch: (input, init) => sim.handle(new Request(input, init)),
  });
}

/** Creates a conversation, streams a reply through the framework, and checks the app's own routes still answer. */
async function exercise(base: string) {
  const created = await fetch(`${base}/askbox/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
  });
  expect(created.status).toBe(200);
  const { data, meta } = (await created.json()) as { data: { id: string }; meta: { grant: string } };
  const streamed = await fetch(`${base}/askbox/messages/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-askbox-grant': meta.grant },
    body: JSON.stringify({ content: 'pricing plans', conversation_id: data.id }),
  });
  expect(streamed.headers.get('content-type')).toContain('text/event-stream');
  expect(await streamed.text()).toContain('[END]');
  expect(await (await fetch(`${base}/hello`)).text()).toBe('app route');
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => close?.());

describe('framework snippets from the README', () => {
  it('Express: a middleware before the body parsers', async () => {
    const proxy = proxyForTest();
    const app = express();
    const askbox = toNodeListener(proxy);
    app.use((req, res, next) => (req.url.startsWith('/askbox/') ? void askbox(req, res) : next()));
    app.use(express.json());
    app.get('/hello', (_req, res) => void res.send('app route'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    close = () => new Promise((resolve) => server.close(resolve));
    await exercise(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  it('Fastify: a hijacked route in a scope without body parsing', async () => {
    const proxy = proxyForTest();
    const app = Fastify();
    const askbox = toNodeListener(proxy);
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/askbox/*', (request, reply) => {
        reply.hijack();
        void askbox(request.raw, reply.raw);
      });
    });
    app.get('/hello', async () => 'app route');
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    await exercise(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  });
});
