import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** The budget for the script-tag bundle: 42 KB gzipped (gzip -9), per issue #9. */
export const BUDGET_BYTES = 42 * 1024;

describe('bundle budget', () => {
  it('keeps dist/askbox.js within 42 KB gzipped, as one self-contained script', () => {
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/askbox.js', import.meta.url)));
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    console.log(`dist/askbox.js: ${bundle.length} bytes, ${gzipped} bytes gzipped (budget ${BUDGET_BYTES})`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
    const source = bundle.toString('utf8');
    // Self-contained: no dynamic import or chunk loading, no eval.
    expect(source).not.toMatch(/\bimport\s*\(/);
    expect(source).not.toMatch(/\beval\s*\(|new Function\s*\(/);
  });
});
