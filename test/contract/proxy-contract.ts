import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID, OTHER_BOT_ID } from '../../demo/simulator/index';
import { FIELDS } from '../../src/protocol/contract';
import { fieldMessage, limitMessage, refusalBody } from '../helpers/messages';
import {
  CONTRACT_KEY,
  CONTRACT_SCENARIO,
  CURRENT_SECRET,
  OLD_SECRET,
  PARTNER,
  contractConfig,
  type ContractConfig,
} from './config';
import { defineGateContract } from './gate-contract';
import { defineIdentityContract } from './identity-contract';
import { mintGrant, rawRequest, readGrant, readTimed } from './http';
import { startUpstream } from './upstream';

/** A proxy runtime under test: starts the proxy with the contract's configuration and says where it listens. */
export interface ProxyRuntime {
  /** Named in every test's title: `node`, `workerd`, `php`. */
  name: string;
  /** Starts the proxy; `url` is its base URL including the base path (`http://127.0.0.1:1234/askbox`). */
  start(config: ContractConfig): Promise<{ url: string; close(): Promise<void> }>;
}

async function expectStatus(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ message: expect.any(String) });
}

/** The service's words for a missing field. */
const required = (field: string) => fieldMessage('required', field);

/** The service's answer for a conversation id it does not know (cody-api.md §3, `exists`). */
const UNKNOWN_CONVERSATION = {
  message: fieldMessage('invalid', 'conversation_id'),
  errors: { conversation_id: [fieldMessage('invalid', 'conversation_id')] },
};

const GRANT = /^g1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{43}$/;
let ipCounter = 0;

/** A rating of a reply in conversation `id`. */
const rating = (id: string, extra: Record<string, unknown> = {}) => ({
  conversation_id: id,
  message_id: 'Rep1y0000001',
  rating: 'down',
  ...extra,
});

/**
 * The black-box contract of the token proxy, over HTTP only, so that every runtime (Node, workerd, PHP) is held to
 * exactly the same behaviour. Each test speaks from its own client IP (the contract trusts one X-Forwarded-For hop),
 * so limits never leak between tests.
 */
export function defineProxyContract(runtime: ProxyRuntime): void {
  describe(`proxy contract [${runtime.name}]`, () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let proxy: { url: string; close(): Promise<void> };
    let config: ContractConfig;
    const seen: Response[] = [];

    beforeAll(async () => {
      upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
      config = contractConfig(upstream.url, upstream.documentIds, upstream.streamOrigin);
      proxy = await runtime.start(config);
    }, 60_000);

    afterAll(async () => {
      await proxy?.close();
      await upstream?.close();
    });

    /** A visitor: one client IP, optionally a grant; every response is kept for the suite-wide checks. */
    function visitor(ip = `203.0.113.${++ipCounter}`) {
      const call = async (
        method: string,
        path: string,
        options: { body?: unknown; grant?: string | null; headers?: Record<string, string> } = {},
      ) => {
        const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.headers };
        if (options.grant) headers['x-askbox-grant'] = options.grant;
        if (options.body !== undefined) headers['content-type'] ??= 'application/json';
        const body =
          options.body === undefined
            ? undefined
            : typeof options.body === 'string'
              ? options.body
              : JSON.stringify(options.body);
        const response = await fetch(`${proxy.url}${path}`, { method, headers, body, redirect: 'manual' });
        seen.push(response.clone());
        return response;
      };
      const start = async (extra: Record<string, unknown> = {}, grant?: string) => {
        const response = await call('POST', '/conversations', {
          body: { name: 'Contract', bot_id: DEMO_BOT_ID, ...extra },
          grant,
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: { id: string; bot_id: string }; meta: { grant: string } };
        return { id: body.data.id, grant: body.meta.grant, data: body.data };
      };
      return { ip, call, start };
    }
    const t = (title: string) => `${title} [${runtime.name}]`;
    const upstreamSince = (mark: number) => upstream.records.slice(mark);

    describe('isolation and grants', () => {
      it(t('creating a conversation returns a signed grant for it, on the pinned bot'), async () => {
        const { id, grant, data } = await visitor().start();
        expect(grant).toMatch(GRANT);
        expect(readGrant(grant)).toMatchObject({ conversationId: id, botId: DEMO_BOT_ID });
        expect(data.bot_id).toBe(DEMO_BOT_ID);
      });

      it(
        t('every read, send and stream needs the grant of that very conversation (404 or 422 otherwise)'),
        async () => {
          const me = visitor();
          const mine = await me.start();
          const other = await me.start();
          const sent = await me.call('POST', '/messages', {
            body: { content: 'shipping costs?', conversation_id: mine.id },
            grant: mine.grant,
          });
          expect(sent.status).toBe(200);
          const reads: [string, string, unknown?][] = [
            ['GET', `/messages?conversation_id=${mine.id}`],
            ['POST', '/messages', { content: 'x', conversation_id: mine.id }],
            ['POST', '/messages/stream', { content: 'x', conversation_id: mine.id }],
          ];
          const tampered = `${mine.grant.slice(0, -3)}${mine.grant.endsWith('AAA') ? 'BBB' : 'AAA'}`;
          for (const grant of [null, other.grant, tampered, 'g1.garbage', mine.grant.replace(mine.id, other.id)]) {
            for (const [method, path, body] of reads) {
              const mark = upstream.records.length;
              const response = await me.call(method, path, { body, grant });
              // A send names its conversation in the body, which the service validates: not the visitor's reads as
              // not existing (422), as the service says of an unknown id.
              expect(response.status, `${method} ${path} with ${grant}`).toBe(method === 'POST' ? 422 : 404);
              expect(await response.json()).toEqual(
                method === 'POST' ? UNKNOWN_CONVERSATION : { message: expect.any(String) },
              );
              if (method === 'POST') expect(upstreamSince(mark)).toHaveLength(0);
            }
          }
          const list = await me.call('GET', `/messages?conversation_id=${mine.id}&includes=sources`, {
            grant: mine.grant,
          });
          expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(2);
        },
      );

      it(
        t('accepts a grant minted elsewhere from the documented format, with the current or a rotated secret'),
        async () => {
          const me = visitor();
          const { id } = await me.start();
          const parts = {
            conversationId: id,
            botId: DEMO_BOT_ID,
            visitorId: 'contractVisitor01',
            expires: Math.floor(Date.now() / 1000) + 600,
          };
          for (const secret of [CURRENT_SECRET, OLD_SECRET]) {
            const grant = mintGrant(secret, parts);
            expect((await me.call('GET', `/messages?conversation_id=${id}`, { grant })).status).toBe(200);
          }
          const refused = [
            mintGrant('an-unknown-secret-000000000000', parts),
            mintGrant(CURRENT_SECRET, { ...parts, expires: Math.floor(Date.now() / 1000) - 1 }),
            mintGrant(CURRENT_SECRET, { ...parts, botId: OTHER_BOT_ID }),
          ];
          for (const grant of refused)
            expect((await me.call('GET', `/messages?conversation_id=${id}`, { grant })).status).toBe(404);
        },
      );

      it(t('stream tokens open only with the grant of their conversation, and expire quickly'), async () => {
        const me = visitor();
        const mine = await me.start();
        const other = await me.start();
        const started = await me.call('POST', '/messages/stream', {
          body: { content: 'returns?', conversation_id: mine.id },
          grant: mine.grant,
        });
        expect(started.status).toBe(302);
        const location = started.headers.get('location') ?? '';
        expect(location).toMatch(/^\/askbox\/stream\/[A-Za-z0-9_-]+$/);
        const path = location.replace('/askbox', '');
        for (const grant of [null, other.grant]) expect((await me.call('GET', path, { grant })).status).toBe(404);
        const token = path.split('/').pop() ?? '';
        const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
        for (const bad of [altered, 'AAAA', 'not-a-token', btoa('http://evil.test').replace(/=/g, '')]) {
          expect((await me.call('GET', `/stream/${bad}`, { grant: mine.grant })).status).toBe(404);
        }
        const stream = await me.call('GET', path, { grant: mine.grant });
        expect(stream.headers.get('content-type')).toContain('text/event-stream');
        const text = await stream.text();
        expect(text.startsWith('data: [START]')).toBe(true);
        expect(text.trim().endsWith('data: [END]')).toBe(true);
        const again = await me.call('POST', '/messages/stream', {
          body: { content: 'again', conversation_id: mine.id },
          grant: mine.grant,
        });
        expect(again.status).toBe(302);
        const later = (again.headers.get('location') ?? '').replace('/askbox', '');
        // Behaviour under test, not a sleep to remove: the stream URL's lifetime passes on the proxy's own clock (a
        // Node, workerd or PHP process), and a stream can be read once, so polling for its end would spend it.
        await new Promise((resolve) => setTimeout(resolve, config.streamTtlSeconds * 1000 + 300));
        expect((await me.call('GET', later, { grant: mine.grant })).status).toBe(404);
      });

      it(t('pins the bot and keeps visitor-chosen focus documents to the allowlist; names are bounded'), async () => {
        const me = visitor();
        expect((await me.call('POST', '/conversations', { body: { name: 'x', bot_id: OTHER_BOT_ID } })).status).toBe(
          422,
        );
        const [allowed, alsoAllowed] = config.documentIds;
        const foreign = upstream.documentIds.find((id) => !config.documentIds.includes(id));
        const sentFor = async (extra: Record<string, unknown>) => {
          const mark = upstream.records.length;
          await me.start(extra);
          return JSON.parse(upstreamSince(mark).find((r) => r.path.endsWith('/conversations'))?.body ?? '{}') as {
            name: string;
            document_ids?: string[];
          };
        };
        expect((await sentFor({ document_ids: [allowed] })).document_ids).toEqual([allowed]);
        expect((await sentFor({ document_ids: [allowed, foreign] })).document_ids).toEqual([allowed, alsoAllowed]);
        const long = await sentFor({ name: 'n'.repeat(5000) });
        expect(long.name).toBe('n'.repeat(FIELDS.nameMax));
        expect(long.document_ids).toEqual([allowed, alsoAllowed]);
      });
    });

    describe("the service's own answers (cody-api.md)", () => {
      it(t('answers an empty send with the service 422: both fields, in its order and wording'), async () => {
        const me = visitor();
        const { grant } = await me.start();
        for (const path of ['/messages', '/messages/stream']) {
          const mark = upstream.records.length;
          const response = await me.call('POST', path, { body: {}, grant });
          expect(response.status, path).toBe(422);
          expect(await response.json()).toEqual({
            message: `${required('content')} (and 1 more error)`,
            errors: {
              content: [required('content')],
              conversation_id: [required('conversation_id')],
            },
          });
          expect(upstreamSince(mark)).toHaveLength(0);
        }
      });

      it(t('judges odd fields as the service does: blank, empty, of the wrong type, redirect spellings'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const cases: [string, Record<string, unknown>, Record<string, string>][] = [
          ['/messages', { content: '   ', conversation_id: id }, { content: required('content') }],
          ['/messages', { content: [], conversation_id: id }, { content: required('content') }],
          ['/messages', { content: {}, conversation_id: id }, { content: required('content') }],
          [
            '/messages',
            { content: 7, conversation_id: ' ' },
            { content: fieldMessage('string', 'content'), conversation_id: required('conversation_id') },
          ],
          [
            '/messages/stream',
            { content: 'x', conversation_id: id, redirect: 'maybe' },
            { redirect: fieldMessage('boolean', 'redirect') },
          ],
          ['/conversations', { name: 7, bot_id: DEMO_BOT_ID }, { name: fieldMessage('string', 'name') }],
          ['/conversations', { name: 'x', bot_id: [] }, { bot_id: required('bot_id') }],
          ['/conversations', { name: 'x', bot_id: 7 }, { bot_id: fieldMessage('invalid', 'bot_id') }],
        ];
        for (const [path, body, errors] of cases) {
          const mark = upstream.records.length;
          const response = await me.call('POST', path, { body, grant });
          expect(response.status, JSON.stringify(body)).toBe(422);
          expect(((await response.json()) as { errors: unknown }).errors, JSON.stringify(body)).toEqual(
            Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, [message]])),
          );
          expect(upstreamSince(mark)).toHaveLength(0);
        }
        // `redirect` takes Laravel's boolean spellings.
        for (const [redirect, status] of [
          ['0', 200],
          ['false', 200],
          ['1', 302],
        ] as const) {
          const started = await me.call('POST', '/messages/stream', {
            body: { content: 'x', conversation_id: id, redirect },
            grant,
          });
          expect(started.status, String(redirect)).toBe(status);
          await started.arrayBuffer();
        }
      });

      it(
        t("answers an unknown conversation and one that is not the visitor's alike, with the service 422"),
        async () => {
          const me = visitor();
          const mine = await me.start();
          const stranger = await visitor().start();
          for (const path of ['/messages', '/messages/stream']) {
            for (const conversationId of ['unknownConv1', stranger.id, 42]) {
              const mark = upstream.records.length;
              const response = await me.call('POST', path, {
                body: { content: 'hello', conversation_id: conversationId },
                grant: mine.grant,
              });
              expect(response.status, `${path} ${conversationId}`).toBe(422);
              expect(await response.json()).toEqual(UNKNOWN_CONVERSATION);
              expect(upstreamSince(mark)).toHaveLength(0);
            }
          }
        },
      );

      it(
        t('answers redirect: false with 200 and its own absolute stream URL, which opens with the grant'),
        async () => {
          const me = visitor();
          const { id, grant } = await me.start();
          const response = await me.call('POST', '/messages/stream', {
            body: { content: 'returns?', conversation_id: id, redirect: false },
            grant,
          });
          expect(response.status).toBe(200);
          const body = (await response.json()) as { data: { stream_url: string } };
          expect(Object.keys(body)).toEqual(['data']);
          expect(Object.keys(body.data)).toEqual(['stream_url']);
          expect(body.data.stream_url).toMatch(new RegExp(`^${proxy.url}/stream/[A-Za-z0-9_-]{20,}$`));
          const stream = await me.call('GET', body.data.stream_url.slice(proxy.url.length), { grant });
          expect(stream.status).toBe(200);
          expect(await stream.text()).toContain('data: [END]');
          const bad = await me.call('POST', '/messages/stream', {
            body: { content: 'x', conversation_id: id, redirect: 'no' },
            grant,
          });
          expect(bad.status).toBe(422);
          expect(await bad.json()).toEqual({
            message: fieldMessage('boolean', 'redirect'),
            errors: { redirect: [fieldMessage('boolean', 'redirect')] },
          });
        },
      );

      it(t('answers an empty new conversation with the service 422 (name and bot id), and pins the bot'), async () => {
        const me = visitor();
        const mark = upstream.records.length;
        const empty = await me.call('POST', '/conversations', { body: {} });
        expect(empty.status).toBe(422);
        expect(await empty.json()).toEqual({
          message: `${required('name')} (and 1 more error)`,
          errors: { name: [required('name')], bot_id: [required('bot_id')] },
        });
        const nameless = await me.call('POST', '/conversations', { body: { name: '  ', bot_id: DEMO_BOT_ID } });
        expect(await nameless.json()).toEqual({
          message: required('name'),
          errors: { name: [required('name')] },
        });
        const foreign = await me.call('POST', '/conversations', { body: { name: 'x', bot_id: OTHER_BOT_ID } });
        expect(await foreign.json()).toEqual({
          message: fieldMessage('invalid', 'bot_id'),
          errors: { bot_id: [fieldMessage('invalid', 'bot_id')] },
        });
        expect(upstreamSince(mark)).toHaveLength(0);
      });

      it(t("passes the service's Retry-After on with its 429 and 503"), async () => {
        for (const [content, status, wait] of [
          ['toomany', 429, '7'],
          ['overloaded', 503, '9'],
        ] as const) {
          // A visitor of its own for each, within its limit of three messages.
          const me = visitor();
          const { id, grant } = await me.start();
          for (const path of ['/messages', '/messages/stream']) {
            const response = await me.call('POST', path, { body: { content, conversation_id: id }, grant });
            expect(response.status, `${path} ${content}`).toBe(status);
            expect(response.headers.get('retry-after'), `${path} ${content}`).toBe(wait);
            expect(await response.json()).toEqual({ message: expect.any(String) });
          }
        }
      });
    });

    describe('allowlist, methods and hostile requests', () => {
      it.each([
        ['GET', '/bots'],
        ['PUT', '/conversations'],
        ['GET', '/conversations/abcdefabcdef'],
        ['DELETE', '/conversations/abcdefabcdef'],
        ['POST', '/conversations/abcdefabcdef'],
        ['GET', '/documents'],
        ['POST', '/uploads/signed-url'],
        ['PUT', '/messages'],
        ['PATCH', '/messages'],
        ['GET', '/messages/abcdefabcdef'],
        ['DELETE', '/messages/abcdefabcdef'],
        ['GET', '/messages/stream'],
        ['POST', '/stream/abc'],
        ['GET', '/messages/a/b'],
        ['GET', '/health/x'],
      ])(t('refuses %s %s with 404/405 in the envelope, without calling upstream'), async (method, path) => {
        const mark = upstream.records.length;
        const response = await visitor().call(method, path, method === 'GET' ? {} : { body: {} });
        expect([404, 405]).toContain(response.status);
        expect(await response.json()).toEqual({ message: expect.any(String) });
        expect(upstreamSince(mark)).toHaveLength(0);
      });

      // The request line and Host (absolute-form targets, unregistered methods such as TRACK, malformed hosts) are
      // parsed by each platform's HTTP server before the proxy runs; the Node adapter's part is tested in
      // test/unit/proxy/adapters/node/.
      it(t('answers odd methods, path tricks and odd headers with 4xx, never 5xx'), async () => {
        const host = new URL(proxy.url).host;
        const heads = [
          `TRACE /askbox/conversations HTTP/1.1\nHost: ${host}`,
          `HEAD /askbox/messages HTTP/1.1\nHost: ${host}`,
          `GET /askbox/../api/v1/bots HTTP/1.1\nHost: ${host}`,
          `GET /askbox/%2e%2e/api/v1/bots HTTP/1.1\nHost: ${host}`,
          `GET /askbox/conversations/abc%2F..%2F..%2Fbots HTTP/1.1\nHost: ${host}`,
          `GET /askbox/health HTTP/1.1\nHost: ${host}\nX-Forwarded-For: not an ip, ;;`,
        ];
        for (const head of heads) {
          const { status } = await rawRequest(proxy.url, `${head}\nConnection: close`);
          expect(status, head.split('\n')[0]).toBeGreaterThanOrEqual(200);
          expect(status, head.split('\n')[0]).toBeLessThan(500);
        }
      });

      it(t('takes only small, flat application/json bodies'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const send = (body: string, type = 'application/json') =>
          me.call('POST', '/messages', { body, grant, headers: { 'content-type': type } });
        await expectStatus(await send(JSON.stringify({ content: 'x', conversation_id: id }), 'text/plain'), 415);
        await expectStatus(
          await send(JSON.stringify({ content: 'x', conversation_id: id }), 'application/x-www-form-urlencoded'),
          415,
        );
        await expectStatus(await send(JSON.stringify({ content: 'x'.repeat(70_000), conversation_id: id })), 413);
        await expectStatus(
          await send(`{"content":"x","conversation_id":"${id}","deep":${'['.repeat(5000)}${']'.repeat(5000)}}`),
          400,
        );
        await expectStatus(await send('{oops'), 400);
        await expectStatus(await send('[]'), 400);
        const typed = await send(JSON.stringify({ content: ['x'], conversation_id: id }));
        expect(typed.status).toBe(422);
        expect(((await typed.json()) as { errors: object }).errors).toHaveProperty('content');
      });

      it(t('allows same-host pages and listed origins only, ports included'), async () => {
        const me = visitor();
        const self = new URL(proxy.url);
        const create = (origin: string) =>
          me.call('POST', '/conversations', { body: { name: 'x', bot_id: DEMO_BOT_ID }, headers: { origin } });
        expect((await create(self.origin)).status).toBe(200);
        const listed = await create(PARTNER);
        expect(listed.status).toBe(200);
        expect(listed.headers.get('access-control-allow-origin')).toBe(PARTNER);
        expect(listed.headers.get('access-control-expose-headers')).toMatch(/retry-after/i);
        for (const origin of [
          'https://evil.example',
          'null',
          `${self.protocol}//${self.hostname}:${Number(self.port) + 1}`,
        ]) {
          expect((await create(origin)).status, origin).toBe(403);
        }
        const preflight = await me.call('OPTIONS', '/messages/stream', {
          headers: {
            origin: PARTNER,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, x-askbox-grant',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe(PARTNER);
        expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-askbox-grant/i);
      });

      it(t('has a health route that calls nobody, names the proxy and says whether it serves a bot'), async () => {
        const mark = upstream.records.length;
        const response = await visitor().call('GET', '/health');
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ status: 'ok', proxy: 'askbox' });
        const served = await visitor().call('GET', `/health?bot_id=${DEMO_BOT_ID}`);
        expect(await served.json()).toEqual({ status: 'ok', proxy: 'askbox', bot: true });
        const other = await visitor().call('GET', `/health?bot_id=${OTHER_BOT_ID}`);
        expect(await other.json()).toEqual({ status: 'ok', proxy: 'askbox', bot: false });
        expect(upstreamSince(mark)).toHaveLength(0);
      });

      it(t('has no challenge to solve while proof of work is off (204, no body), and needs no proof'), async () => {
        const me = visitor();
        const response = await me.call('GET', '/challenge');
        expect(response.status).toBe(204);
        expect(await response.text()).toBe('');
        expect(response.headers.get('cache-control')).toBe('no-store');
        await me.start();
      });
    });

    describe('abuse limits', () => {
      it(t('a visitor sending in a burst gets 429 with Retry-After before any upstream call'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const statuses: number[] = [];
        let refused: Response | undefined;
        for (let i = 0; i < 6; i++) {
          const mark = upstream.records.length;
          const response = await me.call('POST', '/messages', {
            body: { content: `question ${i}`, conversation_id: id },
            grant,
          });
          statuses.push(response.status);
          if (response.status === 429) {
            refused ??= response;
            expect(upstreamSince(mark)).toHaveLength(0);
          }
        }
        expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
        expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(refused?.headers.get('retry-after'))).toBeLessThanOrEqual(10);
        expect(await refused?.json()).toEqual({ message: expect.stringMatching(/too many/i) });
      });

      it(t('one IP is limited across visitors, for messages and for new conversations'), async () => {
        const ip = `198.51.100.${++ipCounter}`;
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) {
          const someone = visitor(ip);
          const created = await someone.call('POST', '/conversations', { body: { name: 'x', bot_id: DEMO_BOT_ID } });
          statuses.push(created.status);
          if (created.status !== 200) continue;
          const { data, meta } = (await created.json()) as { data: { id: string }; meta: { grant: string } };
          for (let j = 0; j < 2; j++) {
            statuses.push(
              (
                await someone.call('POST', '/messages', {
                  body: { content: 'hi', conversation_id: data.id },
                  grant: meta.grant,
                })
              ).status,
            );
          }
        }
        // Conversations: burst 4 per IP; messages: burst 5 per IP (3 per visitor).
        expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
        const more = visitor(ip);
        const fourth = await more.call('POST', '/conversations', { body: { name: 'x', bot_id: DEMO_BOT_ID } });
        expect(fourth.status).toBe(200);
        expect((await more.call('POST', '/conversations', { body: { name: 'x', bot_id: DEMO_BOT_ID } })).status).toBe(
          429,
        );
      });

      it(
        t('a visitor keeps its identity across conversations, so starting afresh does not reset its limits'),
        async () => {
          const me = visitor();
          const first = await me.start();
          const second = await me.start({}, first.grant);
          expect(readGrant(second.grant).visitorId).toBe(readGrant(first.grant).visitorId);
          const third = await me.call('POST', '/conversations', {
            body: { name: 'x', bot_id: DEMO_BOT_ID },
            grant: second.grant,
          });
          expect(third.status).toBe(429);
          expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        },
      );
    });

    describe('ratings and deletions (the grant holder only)', () => {
      it(t('deletes the visitor own conversation at the service, and nobody else can'), async () => {
        const me = visitor();
        const mine = await me.start();
        const other = await visitor().start();
        const tampered = `${mine.grant.slice(0, -3)}${mine.grant.endsWith('AAA') ? 'BBB' : 'AAA'}`;
        for (const grant of [null, other.grant, tampered, mine.grant.replace(mine.id, other.id)]) {
          const mark = upstream.records.length;
          const refused = await me.call('DELETE', `/conversations/${mine.id}`, { grant });
          expect(refused.status, `DELETE with ${grant}`).toBe(404);
          expect(await refused.json()).toEqual(refusalBody('conversationNotFound'));
          expect(upstreamSince(mark)).toHaveLength(0);
        }
        const mark = upstream.records.length;
        const deleted = await me.call('DELETE', `/conversations/${mine.id}`, { grant: mine.grant });
        expect(deleted.status).toBe(200);
        expect(upstreamSince(mark).map((r) => `${r.method} ${r.path}`)).toEqual([
          expect.stringMatching(new RegExp(`^DELETE /.*/conversations/${mine.id}$`)),
        ]);
        // Gone at the service: a send to it is the service's own "invalid" answer.
        const after = await me.call('POST', '/messages', {
          body: { content: 'still there?', conversation_id: mine.id },
          grant: mine.grant,
        });
        expect(after.status).toBe(422);
        expect(await after.json()).toEqual(UNKNOWN_CONVERSATION);
        const method = await me.call('GET', `/conversations/${other.id}`, { grant: other.grant });
        expect(method.status).toBe(405);
        expect(method.headers.get('allow')).toBe('DELETE');
        const preflight = await me.call('OPTIONS', `/conversations/${other.id}`, {
          headers: { origin: PARTNER, 'access-control-request-method': 'DELETE' },
        });
        expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
      });

      it(t('takes a rating of a reply with the grant, and never calls the service for it'), async () => {
        const me = visitor();
        const mine = await me.start();
        const mark = upstream.records.length;
        const rated = await me.call('POST', '/feedback', {
          // 500 characters, two bytes each: counted as the service counts, in code points.
          body: rating(mine.id, { comment: ` ${'é'.repeat(FIELDS.feedbackCommentMax - 1)}` }),
          grant: mine.grant,
        });
        expect(rated.status).toBe(200);
        expect(await rated.json()).toEqual({
          data: { conversation_id: mine.id, message_id: 'Rep1y0000001', rating: 'down' },
        });
        const changed = await me.call('POST', '/feedback', {
          body: rating(mine.id, { rating: 'up' }),
          grant: mine.grant,
        });
        expect(changed.status).toBe(200);
        expect(upstreamSince(mark)).toHaveLength(0);
      });

      it(t('judges a rating as the service would judge a body: fields in order, in its words'), async () => {
        const me = visitor();
        const mine = await me.start();
        const other = await visitor().start();
        const cases: [unknown, string | null, Record<string, string[]>][] = [
          [
            {},
            mine.grant,
            {
              conversation_id: [required('conversation_id')],
              message_id: [required('message_id')],
              rating: [required('rating')],
            },
          ],
          [rating(mine.id), other.grant, { conversation_id: [fieldMessage('invalid', 'conversation_id')] }],
          [
            rating(mine.id, { message_id: '../etc' }),
            mine.grant,
            { message_id: [fieldMessage('invalid', 'message_id')] },
          ],
          [rating(mine.id, { rating: 'meh' }), mine.grant, { rating: [fieldMessage('invalid', 'rating')] }],
          [rating(mine.id, { comment: 7 }), mine.grant, { comment: [fieldMessage('string', 'comment')] }],
          [
            rating(mine.id, { comment: 'x'.repeat(FIELDS.feedbackCommentMax + 1) }),
            mine.grant,
            { comment: [fieldMessage('max', 'comment', FIELDS.feedbackCommentMax)] },
          ],
        ];
        const mark = upstream.records.length;
        for (const [body, grant, errors] of cases) {
          const response = await me.call('POST', '/feedback', { body, grant });
          expect(response.status, JSON.stringify(body)).toBe(422);
          const first = Object.values(errors)[0]![0];
          const more = Object.keys(errors).length - 1;
          expect(await response.json()).toEqual({
            message: more ? `${first} (and ${more} more errors)` : first,
            errors,
          });
        }
        expect(upstreamSince(mark)).toHaveLength(0);
      });

      it(t('limits ratings and deletions per visitor, apart from messages'), async () => {
        const me = visitor();
        const mine = await me.start();
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++)
          statuses.push((await me.call('POST', '/feedback', { body: rating(mine.id), grant: mine.grant })).status);
        const refused = await me.call('DELETE', `/conversations/${mine.id}`, { grant: mine.grant });
        statuses.push(refused.status);
        // visitorActions: a burst of 3; a message still goes through.
        expect(statuses).toEqual([200, 200, 200, 429]);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await refused.json()).toEqual({
          message: limitMessage('action', Number(refused.headers.get('retry-after'))),
        });
        const sent = await me.call('POST', '/messages', {
          body: { content: 'hi', conversation_id: mine.id },
          grant: mine.grant,
        });
        expect(sent.status).toBe(200);
      });
    });

    describe('streams and timeouts', () => {
      it(t('passes a stream through chunk by chunk as upstream writes it'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const started = await me.call('POST', '/messages/stream', {
          body: { content: 'drip', conversation_id: id },
          grant,
        });
        const stream = await me.call('GET', (started.headers.get('location') ?? '').replace('/askbox', ''), { grant });
        const { chunks, error } = await readTimed(stream);
        expect(error).toBeUndefined();
        const events = chunks.map((c) => c.text).join('');
        expect(events).toContain('data: {"chunk":"one "}');
        expect(events.trim().endsWith('data: [END]')).toBe(true);
        // Upstream writes a chunk every 150 ms: they must not arrive in one lump at the end.
        const withText = chunks.filter((c) => c.text.includes('"chunk"'));
        expect(withText.length).toBeGreaterThanOrEqual(4);
        expect(withText.at(-1)!.at - withText[0]!.at).toBeGreaterThanOrEqual(450);
      });

      it(t('cuts a stream that goes silent after the idle timeout, and one that runs too long'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        for (const content of ['stall', 'endless']) {
          const started = await me.call('POST', '/messages/stream', { body: { content, conversation_id: id }, grant });
          const begun = Date.now();
          const stream = await me.call('GET', (started.headers.get('location') ?? '').replace('/askbox', ''), {
            grant,
          });
          const { chunks } = await readTimed(stream);
          const elapsed = Date.now() - begun;
          expect(chunks.map((c) => c.text).join(''), content).not.toContain('[END]');
          expect(elapsed, content).toBeGreaterThanOrEqual(
            content === 'stall' ? config.timeouts.idleMs - 100 : config.timeouts.maxStreamMs - 100,
          );
          expect(elapsed, content).toBeLessThan(
            content === 'stall' ? config.timeouts.idleMs + 1500 : config.timeouts.maxStreamMs + 1500,
          );
        }
      });

      it(t('answers 504 in the envelope when the service does not answer in time'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const started = await me.call('POST', '/messages/stream', {
          body: { content: 'slowstart', conversation_id: id },
          grant,
        });
        const begun = Date.now();
        const stream = await me.call('GET', (started.headers.get('location') ?? '').replace('/askbox', ''), { grant });
        expect(stream.status).toBe(504);
        expect(await stream.json()).toEqual({ message: expect.any(String) });
        expect(Date.now() - begun).toBeLessThan(config.timeouts.connectMs + 900);
      });
    });

    describe('a hostile service, hostile input, a foreign host', () => {
      /** Sends `content` for a stream and opens the stream; both answers. */
      async function streamFor(content: string) {
        const me = visitor();
        const { id, grant } = await me.start();
        const started = await me.call('POST', '/messages/stream', { body: { content, conversation_id: id }, grant });
        if (started.status !== 302) return { started, stream: undefined, me, grant };
        const path = (started.headers.get('location') ?? '').replace('/askbox', '');
        return { started, stream: await me.call('GET', path, { grant }), me, grant, path };
      }

      it(t('follows a stream redirect itself, with the key only while it stays on the service origin'), async () => {
        const mark = upstream.records.length;
        const { stream } = await streamFor('hop 2');
        expect(stream?.status).toBe(200);
        expect(await stream?.text()).toContain('data: [END]');
        const hops = upstreamSince(mark).filter((r) => r.method === 'GET');
        expect(hops.map((r) => [r.host, r.authorization])).toEqual([
          ['api', `Bearer ${CONTRACT_KEY}`],
          ['api', `Bearer ${CONTRACT_KEY}`],
          ['stream', null],
        ]);
      });

      it(t('refuses a redirect off the configured origins, and a fourth hop, with a 502'), async () => {
        for (const content of ['hop trap', 'hop 4']) {
          const { stream } = await streamFor(content);
          expect(stream?.status, content).toBe(502);
          expect(await stream?.json()).toEqual(refusalBody('noStream'));
        }
        const { stream } = await streamFor('hop 3');
        expect(stream?.status).toBe(200);
        await stream?.arrayBuffer();
      });

      it(t('refuses a stream URL off the configured origins before sealing it'), async () => {
        const { started } = await streamFor('trap');
        expect(started.status).toBe(502);
        expect(await started.json()).toEqual(refusalBody('noStream'));
      });

      it(t('opens a stream token once: a replay is a 404'), async () => {
        const { stream, me, grant, path } = await streamFor('returns?');
        expect(stream?.status).toBe(200);
        await stream?.text();
        for (let i = 0; i < 2; i++) {
          const replay = await me.call('GET', path ?? '', { grant });
          expect(replay.status).toBe(404);
          expect(await replay.json()).toEqual(refusalBody('streamGone'));
        }
      });

      it(t('refuses content over 2000 code points with the service 422, before any upstream call'), async () => {
        const me = visitor();
        const { id, grant } = await me.start();
        const message = fieldMessage('max', 'content', FIELDS.contentMax);
        for (const content of ['x'.repeat(FIELDS.contentMax + 1), '😀'.repeat(FIELDS.contentMax + 1)]) {
          for (const path of ['/messages', '/messages/stream']) {
            const mark = upstream.records.length;
            const response = await me.call('POST', path, { body: { content, conversation_id: id }, grant });
            expect(response.status, path).toBe(422);
            expect(await response.json()).toEqual({ message, errors: { content: [message] } });
            expect(upstreamSince(mark)).toHaveLength(0);
          }
        }
        // 2000 emoji are 4000 UTF-16 units, and still 2000 characters.
        const sent = await me.call('POST', '/messages', {
          body: { content: '😀'.repeat(FIELDS.contentMax), conversation_id: id },
          grant,
        });
        expect(sent.status).toBe(200);
      });

      it(t('cuts a long conversation name at 100 code points, never inside a surrogate pair'), async () => {
        const me = visitor();
        const mark = upstream.records.length;
        await me.start({ name: `${'n'.repeat(FIELDS.nameMax - 1)}😀😀` });
        const created = upstreamSince(mark).find((r) => r.path.endsWith('/conversations'));
        expect((JSON.parse(created?.body ?? '{}') as { name: string }).name).toBe(
          `${'n'.repeat(FIELDS.nameMax - 1)}😀`,
        );
      });

      it(t('answers only loopback Hosts without publicUrl or allowedHosts: any other is a 421'), async () => {
        const { port } = new URL(proxy.url);
        const health = (host: string) =>
          rawRequest(proxy.url, `GET /askbox/health HTTP/1.1\nHost: ${host}\nConnection: close`);
        for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, '127.9.9.9', `[::1]:${port}`, 'localhost'])
          expect((await health(host)).status, host).toBe(200);
        for (const host of [
          'evil.example',
          `evil.example:${port}`,
          '10.0.0.1',
          '128.0.0.1',
          'localhost.evil.example',
        ]) {
          const refused = await health(host);
          expect(refused.status, host).toBe(421);
          expect(refused.text).toContain('{"message":"This chat is not served on this host."}');
        }
      });
    });

    describe('key hygiene and headers, over every response of the suite', () => {
      it(t('sends the key to the API on every call, never to the stream host, never to the visitor'), async () => {
        const api = upstream.records.filter((r) => r.host === 'api');
        const streams = upstream.records.filter((r) => r.host === 'stream');
        expect(api.length).toBeGreaterThan(20);
        expect(streams.length).toBeGreaterThan(3);
        for (const record of api) expect(record.authorization).toBe(`Bearer ${CONTRACT_KEY}`);
        // SECURITY: the stream host is another origin; the sealed URL is all it gets. The trap gets nothing at all.
        for (const record of streams) expect(record.authorization).toBeNull();
        expect(upstream.records.filter((r) => r.host === 'trap')).toEqual([]);
        expect(seen.length).toBeGreaterThan(50);
        for (const response of seen) {
          const text = response.body ? await response.text().catch(() => '') : '';
          for (const secret of [CONTRACT_KEY, CURRENT_SECRET, OLD_SECRET, upstream.url, upstream.streamOrigin])
            expect(text).not.toContain(secret);
          response.headers.forEach((value) => {
            for (const secret of [CONTRACT_KEY, CURRENT_SECRET, upstream.url, upstream.streamOrigin])
              expect(value).not.toContain(secret);
          });
        }
      });

      it(t('puts the security headers on every answer and never a cookie'), () => {
        for (const response of seen) {
          expect(response.headers.get('x-content-type-options'), `${response.status}`).toBe('nosniff');
          expect(response.headers.get('cache-control'), `${response.status}`).toContain('no-store');
          expect(response.headers.get('referrer-policy'), `${response.status}`).toBe('no-referrer');
          expect(response.headers.get('set-cookie')).toBeNull();
          expect(response.status).not.toBe(500);
        }
      });
    });
  });
  defineGateContract(runtime);
  defineIdentityContract(runtime);
}
