import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LIMIT_MESSAGE, LIMIT_NOUNS, REFUSALS, VALIDATION } from '../../src/protocol/contract';
import { runPhp } from '../helpers/php';
import { contractData, PHP_PROXY, phpContractBlock, withBlock } from '../helpers/php-contract';

const PROXY_DIR = fileURLToPath(new URL('../../src/proxy/', import.meta.url));
const WORDPRESS = fileURLToPath(new URL('../../src/proxy/wordpress/askbox/askbox.php', import.meta.url));

/** Every message the proxies say, or the fixed words of each template (split at its placeholders). */
const WORDS = [
  ...Object.values(REFUSALS).map((refusal) => refusal.message),
  ...Object.values(LIMIT_NOUNS),
  ...[LIMIT_MESSAGE, ...Object.values(VALIDATION)].flatMap((template) => template.split(/\{\w+\}/)),
].filter((words) => words.trim().length > 12);

describe('one wire contract (src/protocol/contract.ts)', () => {
  it('is copied into askbox-proxy.php as generated, unchanged (npm run contract:php regenerates it)', () => {
    const php = readFileSync(PHP_PROXY, 'utf8');
    expect(withBlock(php, phpContractBlock())).toBe(php);
  });

  it('reads in PHP as the same data', () => {
    expect(runPhp('echo json_encode(ASKBOX_CONTRACT);')).toEqual(contractData());
  });

  it('is the only place a refusal or validation message is written', () => {
    const sources = [
      ...readdirSync(PROXY_DIR)
        .filter((name) => name.endsWith('.ts'))
        .map((name) => [name, readFileSync(`${PROXY_DIR}${name}`, 'utf8')] as const),
      ['askbox-proxy.php', withBlock(readFileSync(PHP_PROXY, 'utf8'), '')] as const,
      ['askbox.php (WordPress)', readFileSync(WORDPRESS, 'utf8')] as const,
    ];
    const copies = sources.flatMap(([name, text]) =>
      WORDS.filter((words) => text.includes(words)).map((words) => `${name}: ${words}`),
    );
    expect(copies).toEqual([]);
  });
});
