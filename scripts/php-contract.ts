import * as contract from '../src/protocol/contract';

/**
 * The PHP proxy's copy of the wire contract (src/protocol/contract.ts): the constant `ASKBOX_CONTRACT`, written
 * between two marker lines of the joined askbox-proxy.php by `npm run build:php` (scripts/build-php.ts), so the
 * proxy stays one file a site owner can drop in. test/contract/contract-php.test.ts fails when the file's copy
 * differs from a fresh one.
 */

const BEGIN = '// <askbox-contract> Generated from src/protocol/contract.ts by `npm run build:php`: do not edit.';
const END = '// </askbox-contract>';

/** A JSON value as a PHP literal: lists as `[a, b]`, objects as `['key' => value]`. */
function toPhp(value: unknown, indent = ''): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return `[${value.map((item) => toPhp(item, indent)).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `[\n${entries.map(([key, item]) => `${inner}${toPhp(key)} => ${toPhp(item, inner)},`).join('\n')}\n${indent}]`;
}

/** The contract as PHP holds it: every export of the contract module by its camel-cased name. */
export function contractData(): Record<string, unknown> {
  // Sorted, as an ES module namespace lists its exports (a CommonJS build would keep source order).
  return Object.fromEntries(
    Object.entries(contract)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => [
        name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
        value,
      ]),
  );
}

/** The generated block: the constant `ASKBOX_CONTRACT` between its two marker lines. */
export function phpContractBlock(): string {
  return `${BEGIN}\nconst ASKBOX_CONTRACT = ${toPhp(contractData())};\n${END}`;
}

/** PHP text with the block between its marker lines (markers included) replaced by `block`. */
export function withBlock(php: string, block: string): string {
  const start = php.indexOf(BEGIN);
  const end = php.indexOf(END);
  if (start === -1 || end < start) throw new Error(`The PHP text has no ${END.slice(5)} block`);
  return php.slice(0, start) + block + php.slice(end + END.length);
}
