import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse';
import { DEFAULTS, MAX_DOCUMENT_IDS } from '../../src/config/schema';

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };

describe('parseConfig', () => {
  it('accepts the minimal tag and fills every default', () => {
    const { config, issues } = parseConfig(minimal);
    expect(issues).toBeUndefined();
    expect(config).toMatchObject({
      ...minimal,
      ...DEFAULTS,
      accent: undefined,
      documentIds: [],
      styleNonce: undefined,
    });
  });

  it('reads data-attribute strings: booleans, lists, trimming, trailing slashes', () => {
    const { config } = parseConfig({
      ...minimal,
      proxyUrl: ' https://chat.example.com/askbox/ ',
      open: '',
      theme: 'dark',
      position: 'bottom-left',
      accent: '#0b57d0',
      documentIds: ' Jw31Pv6PMmro, N1aM886nGeWm ,',
      title: '  Help  ',
      conversationName: 'Shop visitor',
    });
    expect(config).toMatchObject({
      proxyUrl: 'https://chat.example.com/askbox',
      open: true,
      theme: 'dark',
      position: 'bottom-left',
      accent: '#0b57d0',
      documentIds: ['Jw31Pv6PMmro', 'N1aM886nGeWm'],
      title: 'Help',
      conversationName: 'Shop visitor',
    });
    expect(parseConfig({ ...minimal, open: 'false' }).config?.open).toBe(false);
    expect(parseConfig({ ...minimal, open: true }).config?.open).toBe(true);
  });

  it('collects every issue at once, each naming its key', () => {
    const { issues } = parseConfig({
      proxyUrl: 'askbox',
      position: 'top',
      theme: 'neon',
      open: 'yes',
      accent: 'red;}body{x:y',
      documentIds: 'ok,not ok',
    });
    expect(issues?.map((i) => i.key).sort()).toEqual([
      'accent',
      'botId',
      'documentIds',
      'open',
      'position',
      'proxyUrl',
      'theme',
    ]);
    expect(issues?.find((i) => i.key === 'botId')?.message).toMatch(/required/);
    expect(issues?.find((i) => i.key === 'position')?.message).toContain('bottom-right, bottom-left');
  });

  it.each([
    ['#fff'],
    ['#0b57d0'],
    ['#0b57d0cc'],
    ['rebeccapurple'],
    ['rgb(10, 20, 30)'],
    ['hsl(210 50% 40% / 0.8)'],
    ['oklch(0.6 0.2 250)'],
  ])('accepts the colour %s', (accent) => {
    expect(parseConfig({ ...minimal, accent }).issues).toBeUndefined();
  });

  it.each([
    ['red;background:url(x)'],
    ['#12345'],
    ['expression(alert(1))'],
    ['red}:host{display:none'],
    ['"red"'],
    ['url(javascript:x)'],
    ['var(--x)'],
  ])('refuses the colour %s (it is interpolated into CSS)', (accent) => {
    expect(parseConfig({ ...minimal, accent }).issues?.[0]?.key).toBe('accent');
  });

  it('bounds lengths and the number of focus documents', () => {
    expect(parseConfig({ ...minimal, title: 'x'.repeat(81) }).issues?.[0]?.key).toBe('title');
    // The proxy forwards at most 100 characters of a conversation name: a longer one is refused here, not cut there.
    expect(parseConfig({ ...minimal, conversationName: 'n'.repeat(100) }).config?.conversationName).toHaveLength(100);
    expect(parseConfig({ ...minimal, conversationName: 'n'.repeat(101) }).issues?.[0]?.key).toBe('conversationName');
    const ids = Array.from({ length: MAX_DOCUMENT_IDS + 1 }, (_, i) => `doc${i}`);
    expect(parseConfig({ ...minimal, documentIds: ids }).issues?.[0]?.message).toMatch(/at most 1000/);
  });

  it.each([['javascript:alert(1)'], ['//evil.example'], ['ftp://x'], ['relative/path']])(
    'refuses the proxy URL %s',
    (proxyUrl) => {
      expect(parseConfig({ ...minimal, proxyUrl }).issues?.[0]?.key).toBe('proxyUrl');
    },
  );
});
