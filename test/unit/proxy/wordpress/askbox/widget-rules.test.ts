import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { parseHandoff } from '../../../../../src/config/handoff';
import { parseConfig } from '../../../../../src/config/parse';
import { parsePaths } from '../../../../../src/config/paths';
import { WIDGET_RULES } from '../../../../../src/protocol/contract';
import { parseSiteStyle } from '../../../../../src/config/stylesheet';
import { freshBuild } from '../../../../helpers/build';
import { requirePhp } from '../../../../helpers/php';

const PLUGIN = fileURLToPath(new URL('../../../../../dist/wordpress/askbox', import.meta.url));
const RULES = fileURLToPath(new URL('../rules.php', import.meta.url));

type Field =
  | 'show_on'
  | 'handoff_url'
  | 'handoff_email'
  | 'handoff_param'
  | 'greeting'
  | 'greeting_delay'
  | 'consent'
  | 'stylesheet'
  | 'stylesheet_http';
/** The site's address for each stylesheet field: over https, and a local install over http. */
const HOMES = { stylesheet: 'https://blog.example/', stylesheet_http: 'http://localhost:8080/' } as const;
const HANDOFF_KEYS = { handoff_url: 'url', handoff_email: 'email', handoff_param: 'param' } as const;
const SETTINGS = { handoff_url: 'handoffUrl', handoff_email: 'handoffEmail', handoff_param: 'handoffParam' } as const;

/** Whether the widget takes `value` for `field`: its own parsers, the plugin's oracle. A blank value is "not set". */
function widgetTakes(field: Field, value: string): boolean {
  if (field === 'show_on') {
    let ok = true;
    parsePaths(value, () => (ok = false));
    return ok;
  }
  if (field === 'greeting' || field === 'greeting_delay') {
    const key = field === 'greeting' ? 'greeting' : 'greetingDelay';
    return parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', [key]: value }).issues === undefined;
  }
  if (field === 'consent')
    return parseConfig({ botId: 'askboxDemo01', proxyUrl: '/askbox', consent: value }).config !== undefined;
  if (value.trim() === '') return true;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  if (field === 'stylesheet' || field === 'stylesheet_http')
    return parseSiteStyle({ stylesheet: value }, HOMES[field]).url !== undefined;
  return parseHandoff({ [SETTINGS[field]]: value })[HANDOFF_KEYS[field]] !== undefined;
}

const emoji = '\u{1F600}';
/** Values at each rule's edges: separators, URLPattern syntax, white space JavaScript and PCRE disagree on, lengths. */
const CASES: [Field, string][] = [
  ...[
    '/checkout/*',
    '/help/*, /docs/*',
    '/a\n/b\r\n/c',
    '*',
    '/docs*',
    '/ünï/*',
    '/a,/b,,',
    '  /a  ',
    '',
    ',',
    'help',
    '/a b',
    'https://x.example/a',
    '/a?b',
    '/a#b',
    '/:id',
    '/a(b)',
    '/{a}',
    '/a\\b',
    '/a\u00a0/b',
    '/a\u2028b',
    '\ufeff/a',
    '/a\u0085b',
    '/a\u200bb',
    '/<b>"x"',
  ].map((value): [Field, string] => ['show_on', value]),
  ...[
    'https://help.example/contact',
    'http://x',
    'HTTPS://X.EXAMPLE/?a=1&b=%20',
    ' https://x.example/\n',
    'ftp://x.example',
    'javascript:alert(1)',
    'https://',
    'https://x.example/a b',
    'https://x.example/"a',
    "https://x.example/'",
    'https://x.example/<',
    'https://x.example/\\',
    'https://a\nb',
    'https://x.example/a\u00a0b',
    'https://x.example/a\u0085b',
    'https://x.example/a\ufeffb',
    '\ufeffhttps://x.example/',
    `https://${'a'.repeat(2000)}`,
    `https://${'a'.repeat(2001)}`,
    `https://${emoji.repeat(1000)}`,
    `https://${emoji.repeat(1001)}`,
    '   ',
  ].map((value): [Field, string] => ['handoff_url', value]),
  ...[
    'help@shop.example',
    'a.b+c@x-y.example',
    'help@localhost',
    'a@b.c?cc=x@y.z',
    'a@b.c&x',
    'a@b.c\n',
    'a@b.c\nBcc: x@y.z',
    'é@x.example',
    `${'a'.repeat(64)}@x.example`,
    `${'a'.repeat(65)}@x.example`,
    '@x.example',
    'a@b..c',
    'a@b.c%0a',
  ].map((value): [Field, string] => ['handoff_email', value]),
  ...[
    'Questions? Ask me.',
    '',
    '   ',
    'x'.repeat(WIDGET_RULES.greetingMax),
    'x'.repeat(WIDGET_RULES.greetingMax + 1),
    emoji.repeat(WIDGET_RULES.greetingMax),
    emoji.repeat(WIDGET_RULES.greetingMax + 1),
    ` ${'x'.repeat(WIDGET_RULES.greetingMax)}\u00a0`,
  ].map((value): [Field, string] => ['greeting', value]),
  ...[
    '1',
    '5',
    '2.5',
    '600',
    '+7',
    '5.',
    '1e2',
    ' 3 ',
    '',
    '0',
    '0.99',
    '.5',
    '600.01',
    '-1',
    '1e3',
    'soon',
    'NaN',
    'Infinity',
  ].map((value): [Field, string] => ['greeting_delay', value]),
  ...[
    '/wp-content/themes/shop/askbox.css',
    ' /askbox.css?v=2 ',
    'askbox.css',
    '1a:b.css',
    'https://blog.example/askbox.css',
    'HTTPS://CDN.Example:8443/a.css',
    'https://cdn.example',
    'https://cdn.example?v=1',
    'https://cdn.example:65535/a.css',
    'https://cdn.example:65536/a.css',
    'http://blog.example/askbox.css',
    'http://localhost:8080/askbox.css',
    'http://LOCALHOST:8080/a.css',
    'http://localhost/askbox.css',
    'http://localhost:8081/askbox.css',
    'javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/css,a{}',
    'blob:https://blog.example/1',
    'ftp://blog.example/a.css',
    'c:/a.css',
    '//evil.example/a.css',
    '/\\evil.example/a.css',
    'https:evil.example/a.css',
    'https:/evil.example/a.css',
    'https://user:pw@cdn.example/a.css',
    'https://blog.example@evil.example/a.css',
    'https://127.0.0.1/a.css',
    'https://[::1]/a.css',
    'https://cdn.example./a.css',
    'https://cdn.exa_mple/a.css',
    'https://cdn.example/a b.css',
    'https://cdn.example/a\u0085b.css',
    '/a\u00a0b.css',
    '/a\u0007.css',
    '\ufeff/a.css',
    `/${'a'.repeat(1999)}`,
    `/${'a'.repeat(2000)}`,
    `/${emoji.repeat(999)}a`,
    `/${emoji.repeat(1000)}`,
    '   ',
  ].flatMap((value): [Field, string][] => [
    ['stylesheet', value],
    ['stylesheet_http', value],
  ]),
  ...['ticket', 'a-b_C9', 'a b', 'a=b', 'a'.repeat(64), 'a'.repeat(65), 'é', 'ticket\n', 'tick\net'].map(
    (value): [Field, string] => ['handoff_param', value],
  ),
  // The consent text: its length once trimmed, in code points (WIDGET_RULES.consentMax, 1000).
  ...[
    'I agree to the [privacy policy](https://example.com/privacy?a=1&b=%20).',
    '',
    '   ',
    'c'.repeat(1000),
    'c'.repeat(1001),
    emoji.repeat(1000),
    emoji.repeat(1001),
    `  ${'c'.repeat(1000)}\n\n`,
    `\ufeff${'c'.repeat(1000)}\u00a0`,
    `\u0085${'c'.repeat(1000)}`,
    `${'c'.repeat(999)}\u200b`,
    '<script>alert(1)</script> "quoted" & <b>bold</b>',
  ].map((value): [Field, string] => ['consent', value]),
];

describe("the plugin's copies of the widget's page-rule, handoff, greeting, consent and stylesheet checks (widget-rules.php)", () => {
  it('accept and refuse exactly what the widget does, over a table of edge cases', () => {
    requirePhp();
    freshBuild('dist/wordpress/askbox/widget-rules.php');
    const result = spawnSync('php', ['-d', 'display_errors=stderr', RULES, PLUGIN], {
      input: JSON.stringify(CASES),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    const php = JSON.parse(result.stdout) as boolean[];
    const judged = CASES.map(([field, value], i) => ({ field, value, php: php[i], widget: widgetTakes(field, value) }));
    expect(judged.filter((c) => c.php !== c.widget)).toEqual([]);
    // The table holds both outcomes for every field.
    for (const field of [
      'show_on',
      'handoff_url',
      'handoff_email',
      'handoff_param',
      'greeting',
      'greeting_delay',
      'consent',
      'stylesheet',
      'stylesheet_http',
    ])
      expect(new Set(judged.filter((c) => c.field === field).map((c) => c.widget))).toEqual(new Set([true, false]));
  });
});
