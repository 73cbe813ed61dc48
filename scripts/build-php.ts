import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { phpContractBlock, withBlock } from './php-contract';

/**
 * `npm run build:php`: joins the PHP proxy's parts (src/proxy/php/parts/, one concern each) into the one file a site
 * owner drops in, src/proxy/php/askbox-proxy.php, with the wire contract generated into it from
 * src/protocol/contract.ts. Contributors edit the parts; the joined file is committed, and
 * test/contract/contract-php.test.ts fails while it differs from what this script makes.
 */

/** The shipped file, which the README's PHP recipe, the WordPress plugin and the release copy all use. */
export const PHP_PROXY = fileURLToPath(new URL('../src/proxy/php/askbox-proxy.php', import.meta.url));

/** The folder of the parts. */
export const PHP_PARTS_DIR = fileURLToPath(new URL('../src/proxy/php/parts/', import.meta.url));

/**
 * The parts in the order they are joined. The opening comes first: it holds the file's documentation and
 * `declare(strict_types=1)`, which PHP takes only as a file's first statement. The contract follows, because its
 * top-level constants are evaluated in order and the rest read them. The functions after it could come in any
 * order (PHP declares a file's functions before running it); they follow the path of a request.
 */
export const PHP_PARTS = [
  'opening.php',
  'contract.php',
  'entry.php',
  'routing.php',
  'routes.php',
  'upstream.php',
  'limits.php',
  'proof-of-work.php',
  'request.php',
  'grants.php',
  'identity.php',
  'people.php',
  'responses.php',
  'metrics.php',
  'hosts.php',
] as const;

/** Each part opens with this line, so that an editor and `php -l` read it as PHP; the joined file keeps one. */
const OPEN_TAG = '<?php\n';

/** The text of the part `name`, without its opening tag. */
function partBody(name: string): string {
  const text = readFileSync(`${PHP_PARTS_DIR}${name}`, 'utf8');
  if (!text.startsWith(OPEN_TAG)) throw new Error(`src/proxy/php/parts/${name} must begin with ${OPEN_TAG.trim()}`);
  return text.slice(OPEN_TAG.length);
}

/** The joined proxy: the parts in PHP_PARTS' order, a blank line between two, and the contract written in. */
export function joinPhp(): string {
  const joined = OPEN_TAG + PHP_PARTS.map(partBody).join('\n');
  return withBlock(joined, phpContractBlock());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(PHP_PROXY, joinPhp());
