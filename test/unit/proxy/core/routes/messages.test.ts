import { describe, expect, it } from 'vitest';
import { scripted, setup } from '../../../../helpers/proxy';
import { API } from '../../../../helpers/simulator';

/** `POST messages` and `POST messages/stream`: what reaches the service, and within which deadline. */
/** A service that answers after 150 ms, unless the call is given up first. */
function slow(request: Request) {
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => resolve(Response.json({ data: { url: request.url } })), 150);
    request.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
  });
}

describe('proxy routes: messages', () => {
  it('lists with only the query parameters the service documents', async () => {
    const { call, start, upstreamCalls } = setup();
    const mine = await start();
    const response = await call(
      'GET',
      `/messages?conversation_id=${mine.id}&includes=sources&page=2&per_page=5&bot_id=x&keyword=y`,
      undefined,
      { 'x-askbox-grant': mine.grant },
    );
    expect(response.status).toBe(200);
    const listed = upstreamCalls.at(-1)!;
    expect(listed.method).toBe('GET');
    expect(listed.url).toBe(`${API}/messages?conversation_id=${mine.id}&includes=sources&page=2&per_page=5`);
    expect(listed.headers.get('content-type')).toBeNull();
    const missing = await call('GET', '/messages', undefined, { 'x-askbox-grant': mine.grant });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      message: 'The conversation id field is required.',
      errors: { conversation_id: ['The conversation id field is required.'] },
    });
  });

  it('gives a synchronous send until firstByteMs, while other calls get connectMs', async () => {
    const { call, start } = scripted(slow, { timeouts: { connectMs: 50, firstByteMs: 2000 } });
    const mine = await start();
    const headers = { 'x-askbox-grant': mine.grant };
    const sent = await call('POST', '/messages', { body: { content: 'x', conversation_id: mine.id }, headers });
    expect(sent.status).toBe(200);
    const listed = await call('GET', `/messages?conversation_id=${mine.id}`, { headers });
    expect(listed.status).toBe(504);
  });
});
