import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { joinPhp, PHP_PARTS, PHP_PARTS_DIR, PHP_PROXY } from '../../scripts/build-php';
import { contractData, withBlock } from '../../scripts/php-contract';
import { LIMIT_MESSAGE, LIMIT_NOUNS, REFUSALS, VALIDATION } from '../../src/protocol/contract';
import { requirePhp, runPhp } from '../helpers/php';

const PROXY_DIR = fileURLToPath(new URL('../../src/proxy/', import.meta.url));

/** Every message the proxies say, or the fixed words of each template (split at its placeholders). */
const WORDS = [
  ...Object.values(REFUSALS).map((refusal) => refusal.message),
  ...Object.values(LIMIT_NOUNS),
  ...[LIMIT_MESSAGE, ...Object.values(VALIDATION)].flatMap((template) => template.split(/\{\w+\}/)),
].filter((words) => words.trim().length > 12);

/** `php -l`'s verdict on a file: null when it parses, else what PHP said. */
function phpLint(file: string): string | null {
  requirePhp();
  const lint = spawnSync('php', ['-l', file], { encoding: 'utf8' });
  return lint.status === 0 ? null : `${lint.stdout}${lint.stderr}`;
}

describe('the PHP proxy, joined from its parts (npm run build:php)', () => {
  it('is shipped exactly as scripts/build-php.ts joins it, with the contract generated in', () => {
    expect(readFileSync(PHP_PROXY, 'utf8')).toBe(joinPhp());
  });

  it('joins every part there is, each once', () => {
    const parts = readdirSync(PHP_PARTS_DIR).filter((name) => name.endsWith('.php'));
    expect([...PHP_PARTS].sort()).toEqual(parts.sort());
  });

  it('parses (php -l), joined and part by part', () => {
    const files = [PHP_PROXY, ...PHP_PARTS.map((name) => `${PHP_PARTS_DIR}${name}`)];
    expect(files.map((file) => ({ file, lint: phpLint(file) })).filter(({ lint }) => lint !== null)).toEqual([]);
    // Fourteen runs of php, one file each (PHP 8.2 lints only the first file it is given): seconds on a busy machine.
  }, 30_000);
});

describe('one wire contract (src/protocol/contract.ts)', () => {
  it('reads in PHP as the same data', () => {
    expect(runPhp('echo json_encode(ASKBOX_CONTRACT);')).toEqual(contractData());
  });

  it('is the only place a refusal or validation message is written (every .ts and .php file of src/proxy/)', () => {
    const sources = readdirSync(PROXY_DIR, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|php)$/.test(file))
      .map((file) => {
        const text = readFileSync(`${PROXY_DIR}${file}`, 'utf8');
        return { file, text: file.endsWith('askbox-proxy.php') ? withBlock(text, '') : text };
      });
    // The walk reaches the folders the proxy lives in, not only the entries beside them.
    expect(sources.map(({ file }) => file)).toEqual(
      expect.arrayContaining(['core/gate.ts', 'php/parts/responses.php', 'wordpress/askbox/askbox.php']),
    );
    const copies = sources.flatMap(({ file, text }) =>
      WORDS.filter((words) => text.includes(words)).map((words) => `${file}: ${words}`),
    );
    expect(copies).toEqual([]);
  });
});
