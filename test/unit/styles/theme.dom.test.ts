// SECURITY: the accent colours are written into the widget's stylesheet as `:host{--askbox-accent:…}`. Whatever
// parseConfig accepts must land there as one declaration that reads back as given; what would end the declaration,
// the rule or the sheet, or open a comment, a string, an escape or a URL, is refused before it gets there. The
// stacking level and offsets land beside them, as the numbers read.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import { toThemeCss } from '../../../src/styles/theme';

const base = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };

/** Every rule of the sheet `css` makes, as its selector and its declarations: what the browser would apply. */
function rules(css: string): [string, Record<string, string>][] {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return Array.from(sheet.cssRules, (rule) => {
    const { selectorText, style } = rule as CSSStyleRule;
    const names = Array.from({ length: style.length }, (_, index) => style.item(index));
    return [selectorText, Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]))];
  });
}

/** What `colour` as the accent and as the text on it becomes: refused (as both), or the rules the theme writes. */
function landed(colour: string): 'refused' | ReturnType<typeof rules> {
  const result = parseConfig({ ...base, accent: colour, accentText: colour });
  if (result.config) return rules(toThemeCss(result.config));
  expect(result.issues.map((issue) => issue.key)).toEqual(['accent', 'accentText']);
  return 'refused';
}

/** The rule a colour that lands cleanly makes. */
const cleanly = (colour: string) => [
  [
    ':host',
    {
      '--askbox-accent': colour,
      '--askbox-on-accent': colour,
      '--askbox-offset-x': '20px',
      '--askbox-offset-y': '20px',
    },
  ],
];

/** Colours that try to end the declaration, the rule or the sheet, or to open a comment, a string, an escape or a URL. */
const BREAKOUTS = [
  // One character each, where the pattern would let it in first: inside a colour function.
  'rgb(1;2)',
  'rgb(1}2)',
  'rgb(1{2)',
  'rgb(1/*2)',
  'rgb(1\\2)',
  'rgb(1"2)',
  "rgb(1'2)",
  'rgb(1:2)',
  'rgb(1!2)',
  'rgb(1 2 3;background:url(x))',
  'rgb(1 2 3);background:red',
  'hsl(1,2%,3%)}',
  'hsl(1,2%,3%)}:host{display:none',
  'rgb(1 2 3)}body{display:none}',
  'red;',
  'red}',
  'red{',
  ';',
  '}',
  '{',
  'rgb(1/*x*/2 3)',
  'rgb(1 2 3)/*',
  '#fff/*',
  'red\\;',
  'rgb(1 2 \\3)',
  'rgb(1 2 3")',
  "rgb(1 2 3')",
  '"red"',
  'url(x)',
  'rgb(url(x))',
  'rgb(1 2 3) url(x)',
  'rgb(1 2 3)\nbackground:red',
  'red\n}',
  'var(--x)',
  'rgb(1 2 3) !important',
  'red!important',
  'expression(alert(1))',
  '</style><script>alert(1)</script>',
  'rgb(1 2 3))',
  'rgb((1 2 3)',
  'rgb(1 2 3',
];

describe('the accent colours in the stylesheet', () => {
  it.each(BREAKOUTS)('refuses %j as either colour', (colour) => {
    expect(landed(colour)).toBe('refused');
  });

  it.each([
    '#fff',
    '#0B57D0CC',
    'rebeccapurple',
    'rgb(1 2 3)',
    'rgb(1, 2, 3)',
    'hsl(1,2%,3%)',
    'oklch(0.5 0.1 200 / 50%)',
    'rgb(-1 +2 .3e1)',
    // White space inside a colour function is CSS white space: the declaration goes on.
    'rgb(1\n2\t3)',
    `rgb(${'1'.repeat(60)})`,
  ])('writes %j as one declaration on the host, read back as given', (colour) => {
    expect(landed(colour)).toEqual(cleanly(colour));
  });

  // Every character one step past the pattern's class, wherever the pattern lets it in: in a function's arguments,
  // after a hex colour or a keyword. Each either is refused or lands as one declaration that reads back whole.
  it.each(
    Array.from({ length: 128 }, (_, code) => [JSON.stringify(String.fromCharCode(code)), String.fromCharCode(code)]),
  )('takes %s only where it stays inside the declaration', (_, c) => {
    for (const colour of [`rgb(1 2 3${c}4)`, `rgb(1 2 3)${c}`, `#fff${c}`, `red${c}`, `${c}red`]) {
      const outcome = landed(colour);
      // Blanks around a value are trimmed off as it is read.
      if (outcome !== 'refused') expect(outcome, JSON.stringify(colour)).toEqual(cleanly(colour.trim()));
    }
  });
});

describe('the stacking level and offsets in the stylesheet', () => {
  // Written as the number read, never as the text given: `1e3` lands as 1000, and no text can ride along with it.
  it.each([
    ['0', '0', '0px'],
    [' 1e3 ', '1000', undefined],
    ['5e2', '500', '500px'],
    ['0x1F4', '500', '500px'],
    ['10.0', '10', '10px'],
    [2147483647, '2147483647', undefined],
  ])('writes %j as %s', (given, zIndex, offset) => {
    const input = { ...base, zIndex: given, ...(offset ? { offsetX: given, offsetY: given } : {}) };
    const { config } = parseConfig(input);
    expect(config && rules(toThemeCss(config))).toEqual([
      [
        ':host',
        {
          '--askbox-z-index': zIndex,
          '--askbox-offset-x': offset ?? '20px',
          '--askbox-offset-y': offset ?? '20px',
        },
      ],
    ]);
  });

  it.each(['10;color:red', '10}', '1 0', '10px', '{}'])('refuses %j as either', (given) => {
    expect(parseConfig({ ...base, zIndex: given, offsetX: given }).issues?.map((issue) => issue.key)).toEqual([
      'zIndex',
      'offsetX',
    ]);
  });
});
