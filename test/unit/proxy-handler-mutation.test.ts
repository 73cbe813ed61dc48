import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { createProxy, type ProxyOptions } from '../../src/proxy/handler';
import type { ProxyLogEntry } from '../../src/proxy/options';
import { PAGE, PAGE_HOST, SECRET, setup } from '../helpers/proxy';
import { API, SIM_KEY } from '../helpers/simulator';

/**
 * src/proxy/handler.ts where proxy.test.ts and proxy-routes.test.ts leave it open (the Stryker survivors): each
 * request's log line in full, and how a failure that is neither a timeout nor the store's becomes an answer.
 */

/** A proxy whose service is `fetch`, logging into the list returned. */
function failing(fetch: ProxyOptions['fetch']) {
  const logs: ProxyLogEntry[] = [];
  const proxy = createProxy({
    apiKey: SIM_KEY,
    botIds: [DEMO_BOT_ID],
    upstream: API,
    secret: SECRET,
    allowedHosts: [PAGE_HOST],
    log: (entry) => logs.push(entry),
    fetch,
  });
  const create = (signal?: AbortSignal) =>
    proxy(
      new Request(`${PAGE}/askbox/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', bot_id: DEMO_BOT_ID }),
        ...(signal && { signal }),
      }),
      { clientIp: '192.0.2.9' },
    );
  return { create, logs };
}

describe('log lines', () => {
  it('log each request with its level, method, path, status, time and client IP; a 429 as a warning', async () => {
    const { call, logs } = setup({ limits: { ipConversations: { burst: 1, perMinute: 1 } } });
    const before = Date.now();
    for (let i = 0; i < 2; i++) await call('POST', '/conversations', { name: 'x', bot_id: DEMO_BOT_ID });
    const lines = logs.filter((entry) => entry.event !== 'config');
    const line = { method: 'POST', path: '/askbox/conversations', ms: expect.any(Number), ip: '192.0.2.1' };
    expect(lines).toEqual([
      { level: 'info', event: 'request', status: 200, ...line },
      { level: 'warn', event: 'limit', status: 429, ...line },
    ]);
    for (const entry of lines) expect(entry.ms).toBeGreaterThanOrEqual(0);
    for (const entry of lines) expect(entry.ms).toBeLessThanOrEqual(Date.now() - before);
  });
});

describe('failures', () => {
  it('answer a visitor who left with a 499, and log why with the request it broke', async () => {
    const visitor = new AbortController();
    const { create, logs } = failing(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new Error('the visitor left')));
          visitor.abort();
        }),
    );
    const response = await create(visitor.signal);
    expect(response.status).toBe(499);
    expect(await response.json()).toEqual({ message: 'The client went away.' });
    expect(logs.filter((entry) => entry.level === 'error')).toEqual([
      {
        level: 'error',
        event: 'upstream',
        method: 'POST',
        path: '/askbox/conversations',
        message: 'Error: the visitor left',
      },
    ]);
  });

  it('answer a failure that is not an Error with a 502, logging it as text', async () => {
    const { create, logs } = failing(async () => {
      throw 'socket hang up';
    });
    const response = await create();
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ message: 'The chat service could not be reached.' });
    expect(logs.find((entry) => entry.level === 'error')?.message).toBe('socket hang up');
    expect(logs.find((entry) => entry.event === 'request')).toMatchObject({ status: 502, ip: '192.0.2.9' });
  });
});
