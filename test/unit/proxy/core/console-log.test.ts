import { afterEach, describe, expect, it, vi } from 'vitest';
import { logToConsole } from '../../../../src/proxy/core/console-log';
import type { ProxyLogEntry } from '../../../../src/proxy/core/options';

/** What `logToConsole` writes, by console method, for one entry. */
function written(entry: ProxyLogEntry): string[] {
  const lines: string[] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void lines.push(`${method}: ${args.join(' ')}`),
    );
  logToConsole(entry);
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('logToConsole, the log a recipe passes', () => {
  it.each<[string, ProxyLogEntry, string[]]>([
    [
      'a rating, on stdout',
      { level: 'info', event: 'feedback', message: '{"rating":"down"}' },
      ['log: {"level":"info","event":"feedback","message":"{\\"rating\\":\\"down\\"}"}'],
    ],
    [
      'a warning, on stderr',
      { level: 'warn', event: 'config', message: 'No secret set' },
      ['warn: {"level":"warn","event":"config","message":"No secret set"}'],
    ],
    [
      'an error, on stderr',
      { level: 'error', event: 'upstream', method: 'POST', path: '/askbox/messages', message: 'TypeError' },
      ['error: {"level":"error","event":"upstream","method":"POST","path":"/askbox/messages","message":"TypeError"}'],
    ],
    [
      // PRIVACY: the visitor's address never reaches the console.
      'a limit refusal, without the visitor’s IP',
      {
        level: 'warn',
        event: 'limit',
        method: 'POST',
        path: '/askbox/messages',
        status: 429,
        ms: 1,
        ip: '203.0.113.9',
      },
      ['warn: {"level":"warn","event":"limit","method":"POST","path":"/askbox/messages","status":429,"ms":1}'],
    ],
    [
      'nothing for a request answered well',
      { level: 'info', event: 'request', method: 'GET', path: '/askbox/health', status: 200, ms: 1, ip: '::1' },
      [],
    ],
  ])('writes %s', (_name, entry, lines) => {
    expect(written(entry)).toEqual(lines);
  });
});
