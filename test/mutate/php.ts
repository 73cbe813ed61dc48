// Mutation testing for the PHP proxy (`npm run mutate`; alone: `npm run mutate:php`). No mutation tool runs on PHP
// here, so each mutant below is a one-step weakening of a security rule of the PHP proxy, written by hand. Mutants
// apply to the proxy as scripts/build-php.ts joins it from src/proxy/php/parts/ (the file the PHP tests load, with the
// generated contract in it, where the id pattern lives): each to a copy, and the PHP test files run against that copy
// (ASKBOX_PHP_PROXY). A mutant the tests do not fail "survived": a rule that can be weakened without any test
// noticing. Exits non-zero when one survives. MUTANT=<words of a rule> runs only the mutants whose rule contains them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinPhp } from '../../scripts/build-php';

const TESTS = [
  'test/contract/php.test.ts',
  'test/contract/php-store.test.ts',
  'test/contract/php-hardening.test.ts',
  'test/contract/php-rules.test.ts',
];

/** One weakening: `from` must occur exactly once in the proxy, and becomes `to`. */
interface Mutant {
  rule: string;
  from: string;
  to: string;
}

const MUTANTS: Mutant[] = [
  {
    rule: 'grant expiry: a second of grace',
    from: '(int) $expiry * 1000 <= askbox_now_ms()',
    to: '((int) $expiry + 1) * 1000 <= askbox_now_ms()',
  },
  {
    rule: 'stream token expiry: a second of grace',
    from: "$p['e'] > askbox_now_ms()",
    to: "$p['e'] + 1000 > askbox_now_ms()",
  },
  {
    rule: 'grant signature compared with === (not constant-time)',
    from: "hash_equals(hash_hmac('sha256', $payload, $secret, true), $mac)",
    to: "hash_hmac('sha256', $payload, $secret, true) === $mac",
  },
  {
    rule: 'listed origins matched by prefix',
    from: "if ($cross && !in_array($origin, $c['origins'], true))",
    to: "if ($cross && !array_filter($c['origins'], static fn ($o) => str_starts_with($origin, $o)))",
  },
  {
    rule: 'listed origins matched by suffix (host only)',
    from: "if ($cross && !in_array($origin, $c['origins'], true))",
    to: "if ($cross && !array_filter($c['origins'], static fn ($o) => str_ends_with($origin, (string) parse_url($o, PHP_URL_HOST))))",
  },
  {
    rule: 'listed origins matched whatever the scheme',
    from: "if ($cross && !in_array($origin, $c['origins'], true))",
    to: "if ($cross && !in_array(preg_replace('#^https?://#', '', $origin), array_map(static fn ($o) => preg_replace('#^https?://#', '', $o), $c['origins']), true))",
  },
  {
    rule: 'same-host check ignores the port',
    from: 'return askbox_origin($parts) === $origin && askbox_host($parts) === $self;',
    to: "return askbox_origin($parts) === $origin && strtolower($parts['host']) === preg_replace('/:\\d+$/', '', $self);",
  },
  {
    rule: 'Retry-After rounded down',
    from: '$seconds = max(1, (int) ceil($wait / 1000));',
    to: '$seconds = max(1, (int) floor($wait / 1000));',
  },
  {
    rule: 'store wait rounded down',
    from: '$wait = max($wait, (int) ceil((1 - $tokens) / $rate * 1000));',
    to: '$wait = max($wait, (int) floor((1 - $tokens) / $rate * 1000));',
  },
  {
    rule: 'X-Forwarded-For read from the wrong end',
    from: "$hop = $hops[count($hops) - max(1, (int) ($source['trustedHops'] ?? 1))] ?? '';",
    to: "$hop = $hops[max(1, (int) ($source['trustedHops'] ?? 1)) - 1] ?? '';",
  },
  {
    rule: 'forwarded query keys: one more (keyword)',
    from: "['conversation_id', 'includes', 'page', 'per_page']",
    to: "['conversation_id', 'includes', 'page', 'per_page', 'keyword']",
  },
  {
    // Not its scheme check, which the origin check repeats: every origin it accepts is http(s), as validated.
    rule: 'stream URL on another origin',
    from: "if ($origin !== $c['upstreamOrigin'] && !in_array($origin, $c['streamOrigins'], true)) return null;",
    to: '',
  },
  {
    rule: 'id regex unanchored',
    // The pattern lives in the generated contract block (ASKBOX_ID is built from it).
    from: "'idPattern' => '^[A-Za-z0-9_-]{1,64}$',",
    to: "'idPattern' => '[A-Za-z0-9_-]{1,64}',",
  },
  {
    rule: 'id regex with a wider class (.)',
    from: "'idPattern' => '^[A-Za-z0-9_-]{1,64}$',",
    to: "'idPattern' => '^[A-Za-z0-9_.-]{1,64}$',",
  },
  {
    rule: 'loopback hosts: any name starting with localhost',
    from: "return $host === 'localhost' ||",
    to: "return str_starts_with($host, 'localhost') ||",
  },
  {
    rule: 'served hosts matched by suffix',
    from: "if ($c['hosts']) return in_array($host, $c['hosts'], true);",
    to: "if ($c['hosts']) return (bool) array_filter($c['hosts'], static fn ($h) => str_ends_with($host, $h));",
  },
  {
    rule: 'private ranges: 172.16/12 one wider',
    from: '($a === 172 && $b >= 16 && $b <= 31)',
    to: '($a === 172 && $b >= 16 && $b <= 32)',
  },
  { rule: 'header twins allowed', from: 'if (askbox_header_twin($c)) return', to: 'if (false) return' },
  {
    rule: 'content limit one more',
    from: "preg_match_all('/./su', $content) > ASKBOX_MAX_CONTENT",
    to: "preg_match_all('/./su', $content) > ASKBOX_MAX_CONTENT + 1",
  },
  {
    rule: 'the key kept after a hop leaves the service',
    from: "$withKey = $withKey && askbox_origin((array) parse_url($next)) === $c['upstreamOrigin'];",
    to: '$withKey = $withKey;',
  },
  {
    rule: 'the key earned again by a hop back to the service',
    from: "$withKey = $withKey && askbox_origin((array) parse_url($next)) === $c['upstreamOrigin'];",
    to: "$withKey = askbox_origin((array) parse_url($next)) === $c['upstreamOrigin'];",
  },
  {
    rule: 'one more stream hop',
    from: '$hops >= ASKBOX_MAX_STREAM_HOPS',
    to: '$hops > ASKBOX_MAX_STREAM_HOPS',
  },
  {
    rule: 'stream tokens reusable',
    from: '|| !askbox_spend(askbox_db($c),',
    to: '|| !is_string(',
  },
  {
    rule: 'no per-IP daily cap',
    from: "if ($subject === 'visitor' && $visitor === null) continue;",
    to: "if (($subject === 'visitor' && $visitor === null) || $name === 'ipMessagesPerDay') continue;",
  },
  {
    rule: 'store fails open',
    from: "throw new AskboxLimitStoreError('The store cannot be written: ' . $error->getMessage(), 0, $error);",
    to: 'return 0;',
  },
  {
    rule: 'upstream JSON read without a cap',
    from: '$text = stream_get_contents($fp, ASKBOX_MAX_UPSTREAM_JSON + 1);',
    to: '$text = stream_get_contents($fp);',
  },
  {
    rule: 'stream URL logged',
    from: "preg_replace('#(https?://[^/\\s)]+)[^\\s)]*#i', '$1', error_get_last()['message'] ?? 'fopen failed')",
    to: "error_get_last()['message'] ?? 'fopen failed'",
  },
  {
    rule: 'store connection kept across a replaced file',
    from: "PDO::ATTR_PERSISTENT => \"askbox:{$stat['dev']}:{$stat['ino']}\"",
    to: "PDO::ATTR_PERSISTENT => 'askbox'",
  },
  {
    rule: 'store transaction left open by a request that died in it',
    from: 'if ($pending === null) return;',
    to: 'return;',
  },
  {
    // Not the umask before it: the chmod right after makes the new, still empty file private either way.
    rule: 'store file readable by others',
    from: "if (($stat['mode'] & 0077) !== 0) @chmod($file, 0600);",
    to: '',
  },
];

/** Whether the PHP tests pass against `file`. */
function passes(file: string): boolean {
  const run = spawnSync('npx', ['vitest', 'run', '--bail=1', '--reporter=dot', ...TESTS], {
    encoding: 'utf8',
    env: { ...process.env, ASKBOX_PHP_PROXY: file },
  });
  return run.status === 0;
}

function main(): void {
  const original = joinPhp();
  const only = process.env.MUTANT;
  const dir = mkdtempSync(join(tmpdir(), 'askbox-php-mutants-'));
  const rows: { rule: string; result: string }[] = [];
  try {
    // A mutant is killed only if the unmutated proxy passes the very same run.
    const unmutated = join(dir, 'unmutated.php');
    writeFileSync(unmutated, original);
    if (!passes(unmutated)) throw new Error('The PHP tests fail on the unmutated proxy: fix them first.');
    MUTANTS.forEach((mutant, i) => {
      if (only && !mutant.rule.includes(only)) return;
      const count = original.split(mutant.from).length - 1;
      if (count !== 1) {
        rows.push({ rule: mutant.rule, result: `not applied (${count} matches)` });
        return;
      }
      const file = join(dir, `mutant-${i}.php`);
      // A function, so that `$'` or `$1` in the PHP is not read as a replacement pattern.
      writeFileSync(
        file,
        original.replace(mutant.from, () => mutant.to),
      );
      const lint = spawnSync('php', ['-l', file], { encoding: 'utf8' });
      if (lint.status !== 0) {
        rows.push({ rule: mutant.rule, result: 'invalid PHP' });
        return;
      }
      rows.push({ rule: mutant.rule, result: passes(file) ? 'SURVIVED' : 'killed' });
      console.log(`${rows.at(-1)!.result.padEnd(9)} ${mutant.rule}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
  const killed = rows.filter((r) => r.result === 'killed').length;
  const survived = rows.filter((r) => r.result === 'SURVIVED').length;
  const other = rows.length - killed - survived;
  console.log(
    `PHP mutants: ${killed} killed, ${survived} survived${other ? `, ${other} not applied` : ''} of ${rows.length}`,
  );
  if (survived || other) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
