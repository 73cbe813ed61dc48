// @vitest-environment jsdom
// Benchmarks run from the repository root (npm run bench), so paths are relative to it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bench, describe } from 'vitest';
import { createMarkdownStream } from '../../src/render/markdown';
import { createSanitizer } from '../../src/render/sanitize';

const bundle = readFileSync(resolve('dist/askbox.js'));
console.log(`dist/askbox.js: ${bundle.length} bytes raw, ${gzipSync(bundle, { level: 9 }).length} bytes gzip -9`);

const REPLY = readFileSync(resolve('demo/kb/shipping.md'), 'utf8').repeat(3);
const CHUNK = 12;
const sanitize = createSanitizer(window, { code: 'Code', table: 'Table' });

describe('rendering a ~3 KB reply', () => {
  bench('streamed in 12-character chunks (incremental parse + per-block sanitize, cached)', () => {
    const stream = createMarkdownStream(document);
    const cache = new Map<string, string>();
    for (let end = CHUNK; end < REPLY.length + CHUNK; end += CHUNK) {
      for (const block of stream.update(REPLY.slice(0, end), end >= REPLY.length)) {
        if (!cache.has(block)) cache.set(block, sanitize(block));
      }
    }
  });

  bench('rendered at once (history)', () => {
    createMarkdownStream(document)
      .update(REPLY, true)
      .map((html) => sanitize(html));
  });
});
