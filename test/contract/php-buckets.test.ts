import { describe, expect, it } from 'vitest';
import { BUCKET_CASES } from '../fixtures/token-buckets';
import { runPhpOnStore } from '../helpers/php';

const T0 = 1_700_000_000_000;

describe("the PHP proxy's limit store", () => {
  it('passes the token bucket table every store passes (test/fixtures/token-buckets.ts)', () => {
    // One PHP run for the table: each case its own bucket in one fresh store.
    const cases = BUCKET_CASES.map((c, i) => {
      const check = `[['t${i}', ${c.capacity.toFixed(1)}, ${String(c.refillPerSecond)}]]`;
      return `for ($i = 0; $i < ${c.taken}; $i++) if (askbox_take($db, ${check}, ${T0}) !== 0) throw new Exception('drain ${i}');
        $waits[] = askbox_take($db, ${check}, ${T0 + c.elapsedMs});`;
    });
    const waits = runPhpOnStore(
      `$waits = [];
      ${cases.join('\n')}
      echo json_encode($waits);`,
    );
    expect(waits).toEqual(BUCKET_CASES.map((c) => c.wait));
  });
});
