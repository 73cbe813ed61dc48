import { describe, expect, it } from 'vitest';
import { logPath, query } from '../../../../src/proxy/core/request-url';

describe('what the proxy reads of a request URL', () => {
  it('forwards only the listed query parameters, and no `?` when none is there', () => {
    const url = new URL('https://shop.example/askbox/messages?conversation_id=c1&page=2&key=stolen');
    expect(query(url, ['conversation_id', 'page'])).toBe('?conversation_id=c1&page=2');
    expect(query(url, ['cursor'])).toBe('');
    expect(query(new URL('https://shop.example/askbox/messages'), ['page'])).toBe('');
  });

  it('leaves stream tokens, bearer capabilities, out of log lines', () => {
    expect(logPath(new URL('https://shop.example/askbox/stream/sealed-token?x=1'))).toBe('/askbox/stream/:token');
  });
});
