import { describe, expect, it } from 'vitest';
import { BUCKET_KEYS, LIMIT_BUCKETS } from '../../src/protocol/contract';
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

/** PHP that lists each action's bucket keys for `visitor` (a PHP expression). */
const php = (visitor: string) =>
  Object.keys(LIMIT_BUCKETS)
    .map((action) => `'${action}' => array_column(askbox_limit_checks($l, '${action}', '203.0.113.9', ${visitor}), 0)`)
    .join(', ');

/** The bucket keys `action` takes for the given subjects, by the contract's table. */
const keys = (action: keyof typeof LIMIT_BUCKETS, subjects: string[]) =>
  LIMIT_BUCKETS[action]
    .filter(({ subject }) => subjects.includes(subject))
    .map(({ limit }) => BUCKET_KEYS[limit].replace('{ip}', '203.0.113.9').replace('{visitor}', 'v1'));

describe("the PHP proxy's buckets per action", () => {
  it('are the LIMIT_BUCKETS table, without the visitor buckets when there is no visitor', () => {
    const seen = runPhpOnStore(
      `$l = ASKBOX_CONTRACT['defaultLimits'];
      echo json_encode(['with' => [${php("'v1'")}], 'without' => [${php('null')}]]);`,
    );
    const actions = Object.keys(LIMIT_BUCKETS) as (keyof typeof LIMIT_BUCKETS)[];
    expect(seen).toEqual({
      with: Object.fromEntries(actions.map((action) => [action, keys(action, ['ip', 'visitor'])])),
      without: Object.fromEntries(actions.map((action) => [action, keys(action, ['ip'])])),
    });
  });
});
