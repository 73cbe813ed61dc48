import { describe, expect, it } from 'vitest';
import { proxyEndpoint } from '../../../src/api/endpoint';

describe('proxyEndpoint: a proxy route after the proxy URL', () => {
  it.each([
    ['/askbox', '/conversations', '/askbox/conversations'],
    [
      'https://chat.test/askbox/',
      '/messages?page=2&per_page=50',
      'https://chat.test/askbox/messages?page=2&per_page=50',
    ],
    // WordPress's REST API with "Plain" permalinks: the route is a query value, the path's query continues it.
    [
      'https://blog.test/index.php?rest_route=/askbox/v1',
      '/conversations',
      'https://blog.test/index.php?rest_route=/askbox/v1/conversations',
    ],
    [
      'https://blog.test/index.php?rest_route=/askbox/v1/',
      '/messages?conversation_id=c1&page=1',
      'https://blog.test/index.php?rest_route=/askbox/v1/messages&conversation_id=c1&page=1',
    ],
    ['/?lang=de&route=/askbox', '/health?bot_id=b', '/?lang=de&route=/askbox/health&bot_id=b'],
    // Every trailing slash goes, so no route begins with an empty segment.
    ['https://chat.test/askbox//', '/conversations', 'https://chat.test/askbox/conversations'],
  ])('%s + %s = %s', (proxyUrl, path, url) => {
    expect(proxyEndpoint(proxyUrl, path)).toBe(url);
  });
});
