import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../demo/simulator/index';
import { startPhpProxy } from '../helpers/php';
import { CONTRACT_KEY, CONTRACT_SCENARIO, contractConfig } from './config';
import { startUpstream } from './upstream';

/** Where a PHP proxy hands a visitor's rating: its `onFeedback` callable, else one line of the error log. */
describe('the PHP proxy hands ratings to the site', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const running: Awaited<ReturnType<typeof startPhpProxy>>[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'askbox-feedback-'));
  const out = join(folder, 'feedback.jsonl');

  beforeAll(async () => {
    upstream = await startUpstream(CONTRACT_KEY, CONTRACT_SCENARIO);
  });
  afterAll(async () => {
    await Promise.all(running.map((proxy) => proxy.close()));
    await upstream?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function rate(options?: string) {
    const config = contractConfig(upstream.url, []);
    const proxy = await startPhpProxy(config, undefined, {}, { options });
    running.push(proxy);
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.250' };
    const created = await fetch(`${proxy.url}/conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Rated', bot_id: DEMO_BOT_ID }),
    });
    const { data, meta } = (await created.json()) as { data: { id: string }; meta: { grant: string } };
    const response = await fetch(`${proxy.url}/feedback`, {
      method: 'POST',
      headers: { ...headers, 'x-askbox-grant': meta.grant },
      body: JSON.stringify({
        conversation_id: data.id,
        message_id: 'Rep1y0000001',
        rating: 'down',
        comment: ' Wrong ',
      }),
    });
    return { proxy, response, id: data.id, grant: meta.grant };
  }

  it('calls onFeedback with the rating, the trimmed comment and the visitor', async () => {
    const { response, id } = await rate(
      `['onFeedback' => static function (array $event): void { file_put_contents(${JSON.stringify(out)}, json_encode($event) . "\\n", FILE_APPEND); }]`,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      conversationId: id,
      messageId: 'Rep1y0000001',
      rating: 'down',
      comment: 'Wrong',
      visitorId: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/),
    });
  });

  it('answers 503 with Retry-After and logs once when onFeedback throws', async () => {
    const { proxy, response } = await rate(
      `['onFeedback' => static function (): void { throw new RuntimeException('analytics down'); }]`,
    );
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    await expect.poll(() => proxy.errors.join('')).toContain('onFeedback failed: analytics down');
    expect(proxy.errors.join('').match(/\[askbox\]/g)).toHaveLength(1);
  });

  it('writes the rating to the error log when there is no callable', async () => {
    const { proxy, response, id } = await rate();
    expect(response.status).toBe(200);
    await expect.poll(() => proxy.errors.join('')).toContain('"event":"feedback"');
    expect(proxy.errors.join('')).toContain(id);
  });

  it('calls onDelete once the service has deleted the conversation', async () => {
    const erased = join(folder, 'erased.jsonl');
    const { proxy, id, grant } = await rate(
      `['onDelete' => static function (array $event): void { file_put_contents(${JSON.stringify(erased)}, json_encode($event) . "\\n", FILE_APPEND); }]`,
    );
    const remove = () =>
      fetch(`${proxy.url}/conversations/${id}`, {
        method: 'DELETE',
        headers: { 'x-forwarded-for': '203.0.113.251', 'x-askbox-grant': grant },
      });
    expect((await remove()).status).toBe(200);
    expect((await remove()).status).toBe(404);
    const lines = readFileSync(erased, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ conversationId: id, visitorId: expect.any(String) }]);
  });
});
