import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/config/parse';
import type { Theme } from '../../../src/config/schema';
import { CHAT_TRANSITIONS, createWidgetModel, mayRemember, type ChatPhase } from '../../../src/mount/widget-model';
import { createMemoryStorage } from '../../helpers/memory-storage';

const KEY = 'open:yiu456ytyUjk@/askbox';

/** A model over `tab`; `arrival` says whether this page view may read what the session remembers. */
function setup(options: Record<string, unknown> = {}, tab = createMemoryStorage(), arrival = () => true) {
  const { config } = parseConfig({ botId: 'yiu456ytyUjk', proxyUrl: '/askbox', ...options }, { inlineTarget: true });
  if (!config) throw new Error('bad config');
  return { model: createWidgetModel(config, tab, arrival), tab };
}

/** Puts a new model's chat in `phase` by the way the widget gets there. */
function at(phase: ChatPhase) {
  const { model } = setup();
  const path: Record<ChatPhase, ChatPhase[]> = {
    cold: [],
    loading: ['loading'],
    ready: ['loading', 'ready'],
    failed: ['loading', 'failed'],
  };
  for (const step of path[phase]) model.go(step);
  return model;
}

const PHASES: ChatPhase[] = ['cold', 'loading', 'ready', 'failed'];

/**
 * The chat's transitions, every (from, to) pair: `moves` says whether the model takes it. Interest starts a load from
 * cold or failed (Retry); a load ends ready or failed; nothing else moves the chat.
 */
const CHAT: [from: ChatPhase, to: ChatPhase, moves: boolean][] = [
  ['cold', 'cold', false],
  ['cold', 'loading', true],
  ['cold', 'ready', false],
  ['cold', 'failed', false],
  ['loading', 'cold', false],
  ['loading', 'loading', false],
  ['loading', 'ready', true],
  ['loading', 'failed', true],
  ['failed', 'cold', false],
  ['failed', 'loading', true],
  ['failed', 'ready', false],
  ['failed', 'failed', false],
  ['ready', 'cold', false],
  ['ready', 'loading', false],
  ['ready', 'ready', false],
  ['ready', 'failed', false],
];

describe('widget model: the chat behind the launcher', () => {
  it('starts cold', () => {
    expect(setup().model.chat).toBe('cold');
  });

  it.each(CHAT)('%s → %s: moves %s', (from, to, moves) => {
    const model = at(from);
    expect(model.go(to)).toBe(moves);
    expect(model.chat).toBe(moves ? to : from);
  });

  it('lists every (from, to) pair once', () => {
    expect(CHAT.map(([from, to]) => `${from} → ${to}`).sort()).toEqual(
      PHASES.flatMap((from) => PHASES.map((to) => `${from} → ${to}`)).sort(),
    );
  });

  it('lists every phase in its table, and the table is what the model follows', () => {
    expect(Object.keys(CHAT_TRANSITIONS).sort()).toEqual([...PHASES].sort());
    for (const from of PHASES)
      for (const to of PHASES) expect(at(from).go(to), `${from} → ${to}`).toBe(CHAT_TRANSITIONS[from].includes(to));
  });

  it('loads again after each failure: cold → loading → failed → loading → failed → loading → ready', () => {
    const { model } = setup();
    const seen = (['loading', 'failed', 'loading', 'failed', 'loading', 'ready'] as const).map((to) => [
      model.go(to),
      model.chat,
    ]);
    expect(seen.every(([moved]) => moved)).toBe(true);
    expect(model.chat).toBe('ready');
  });
});

/**
 * The open state across a session: the page's `data-open`, what the session already remembers, the opens and closes
 * that happen (the chat's events, or the widget opening itself), what is stored after, and whether the next page
 * load opens the panel itself.
 */
const OPEN: [
  what: string,
  given: { open?: string; mode?: string; stored?: string },
  events: boolean[],
  stored: string | undefined,
  opensAtLoad: boolean,
][] = [
  ['a first visit stores nothing', {}, [], undefined, false],
  ['data-open opens at load, storing nothing (privacy)', { open: 'true' }, [], undefined, true],
  ['data-open opening itself is no choice of the visitor', { open: 'true' }, [true], undefined, true],
  ["the visitor's first open is remembered", {}, [true], '1', true],
  ['and so is a close after it', {}, [true, false], '0', false],
  ['closing a data-open panel is remembered: it stays closed', { open: 'true' }, [true, false], '0', false],
  ['and opening it again after', { open: 'true' }, [true, false, true], '1', true],
  ['a remembered close wins over data-open', { open: 'true', stored: '0' }, [], '0', false],
  ['a remembered open reopens', { stored: '1' }, [], '1', true],
  ['reopening itself from memory keeps it', { stored: '1' }, [true], '1', true],
  ['an inline panel remembers nothing and does not open itself', { mode: 'inline' }, [true, false], undefined, false],
  ['nor does an inline panel with data-open', { mode: 'inline', open: 'true' }, [true], undefined, false],
];

describe('widget model: the open state, remembered for the session', () => {
  it.each(OPEN)('%s', (_, given, events, stored, opensAtLoad) => {
    const tab = createMemoryStorage();
    if (given.stored) tab.set(KEY, given.stored);
    const { model } = setup({ open: given.open, mode: given.mode }, tab);
    for (const open of events) model.setOpen(open);
    expect(tab.get(KEY)).toBe(stored);
    expect(model.opensAtLoad()).toBe(opensAtLoad);
    expect(model.open).toBe(events.at(-1) ?? false);
  });

  it('holds the panel in one place: the launcher asks it open while the chat loads, the chat opens it', () => {
    const { model, tab } = setup();
    expect(model.panel).toBe('closed');
    model.setPanel('pending');
    // Asked for, not open: the chat that comes opens it, and fires its open event then.
    expect([model.panel, model.open]).toEqual(['pending', false]);
    model.setOpen(true);
    expect([model.panel, model.open]).toEqual(['open', true]);
    model.setOpen(false);
    expect([model.panel, model.open]).toEqual(['closed', false]);
    expect(tab.get(KEY)).toBe('0');
  });

  it("remembers the chat's opens and closes only: the frame's, and a widget taken off the page, fire no event", () => {
    const { model, tab } = setup();
    model.setPanel('pending');
    model.setPanel('closed');
    expect(tab.get(KEY)).toBeUndefined();
    model.setOpen(true);
    model.setPanel('closed');
    expect(model.panel).toBe('closed');
    expect(tab.get(KEY)).toBe('1');
    expect(model.opensAtLoad()).toBe(true);
  });

  it('remembers nothing while the chat says not to (no consent yet), and again once it may', () => {
    const { model, tab } = setup();
    model.setOpen(true, false);
    expect(model.open).toBe(true);
    model.setOpen(false, false);
    expect(model.open).toBe(false);
    model.setOpen(true, false);
    expect(tab.get(KEY)).toBeUndefined();
    model.setOpen(true, true);
    expect(tab.get(KEY)).toBe('1');
  });

  it('forgets what it remembered (reset: the visitor is gone), and data-open rules again', () => {
    const { model, tab } = setup({ open: 'true' });
    model.setOpen(false);
    expect(model.opensAtLoad()).toBe(false);
    model.forget();
    expect(tab.get(KEY)).toBeUndefined();
    expect(model.opensAtLoad()).toBe(true);
  });
});

const SITE = 'https://shop.example';

/**
 * How a page view was reached, and whether the open state remembered for the session can matter to it: a referrer
 * of the page's own origin, a reload, or back and forward; not a plain navigation from elsewhere or from nowhere.
 * `type` is `performance.navigation.type` (0 navigate, 1 reload, 2 back or forward), undefined where the browser
 * has none.
 */
const ARRIVALS: [what: string, referrer: string, type: number | undefined, remembers: boolean][] = [
  ["a link on the site's own page", `${SITE}/pricing?plan=pro#faq`, 0, true],
  ['a referrer cut to the origin (Referrer-Policy: origin)', `${SITE}/`, 0, true],
  ['a search engine', 'https://www.google.com/', 0, false],
  ['another origin of the same site', 'https://www.shop.example/', 0, false],
  ['an origin that starts like the site', 'https://shop.example.evil.test/', 0, false],
  ['the same host on another port', 'https://shop.example:8443/', 0, false],
  ['the same host over http', 'http://shop.example/', 0, false],
  ['a typed address, a bookmark, or a no-referrer link', '', 0, false],
  ['a reload', '', 1, true],
  ['a reload of a page landed on from a search engine', 'https://www.google.com/', 1, true],
  ['back or forward', '', 2, true],
  ['back or forward to a page reached from elsewhere', 'https://news.example/', 2, true],
  ['a navigation of a type Navigation Timing reserves', '', 255, true],
  ['a browser without performance.navigation', '', undefined, true],
];

describe('widget model: when the session can remember an open state (mayRemember)', () => {
  it.each(ARRIVALS)('%s', (_, referrer, type, remembers) => {
    expect(mayRemember(referrer, SITE, type)).toBe(remembers);
  });

  it('reads nothing stored when the page view was reached from elsewhere: data-open decides', () => {
    const tab = createMemoryStorage();
    tab.set(KEY, '1');
    const reads: string[] = [];
    const counted = { ...tab, get: (key: string) => (reads.push(key), tab.get(key)) };
    const arrival = vi.fn(() => false);
    const { model } = setup({}, counted, arrival);
    expect([model.opensAtLoad(), model.opensAtLoad()]).toEqual([false, false]);
    expect(reads).toEqual([]);
    expect(arrival).toHaveBeenCalledTimes(1);
    tab.set(KEY, '0');
    expect(setup({ open: 'true' }, counted, arrival).model.opensAtLoad()).toBe(true);
  });

  it("reads it once this page view stored one (a single-page app's page shows the widget again)", () => {
    const { model, tab } = setup({}, createMemoryStorage(), () => false);
    model.setOpen(true);
    expect([tab.get(KEY), model.opensAtLoad()]).toEqual(['1', true]);
    model.setOpen(false);
    expect(model.opensAtLoad()).toBe(false);
  });

  it('asks nothing for an inline panel, which remembers nothing', () => {
    const arrival = vi.fn(() => true);
    expect(setup({ mode: 'inline' }, createMemoryStorage(), arrival).model.opensAtLoad()).toBe(false);
    expect(arrival).not.toHaveBeenCalled();
  });
});

/** The scheme drawn for each theme and system scheme: a theme of its own wins; `auto` follows the system. */
const SCHEMES: [theme: Theme, system: 'light' | 'dark', scheme: 'light' | 'dark'][] = [
  ['auto', 'light', 'light'],
  ['auto', 'dark', 'dark'],
  ['light', 'light', 'light'],
  ['light', 'dark', 'light'],
  ['dark', 'light', 'dark'],
  ['dark', 'dark', 'dark'],
];

describe('widget model: theme and system scheme', () => {
  it('takes its theme from the config, and reads the system as light until told', () => {
    const { model } = setup({ theme: 'dark' });
    expect([model.theme, model.system, model.scheme()]).toEqual(['dark', 'light', 'dark']);
  });

  it.each(SCHEMES)('theme %s on a %s system draws %s', (theme, system, scheme) => {
    const { model } = setup();
    model.theme = theme;
    model.system = system;
    expect(model.scheme()).toBe(scheme);
  });

  it('follows the system as it flips, until a theme of its own is set', () => {
    const { model } = setup();
    const drawn = (['dark', 'light', 'dark'] as const).map((system) => ((model.system = system), model.scheme()));
    model.theme = 'light';
    expect([...drawn, model.scheme()]).toEqual(['dark', 'light', 'dark', 'light']);
  });
});

describe("widget model: the greeting's turn in the session", () => {
  const GREETED = 'greeted:yiu456ytyUjk@/askbox';
  const greeting = { greeting: 'Need a hand?' };

  it('is not over until ended: then it is, for the session, and a new model of the session reads it so', () => {
    const { model, tab } = setup(greeting);
    expect(model.greeted()).toBe(false);
    model.endGreeting();
    expect(tab.get(GREETED)).toBe('1');
    expect(model.greeted()).toBe(true);
    expect(setup(greeting, tab).model.greeted()).toBe(true);
  });

  it.each([
    ['the chat opens its panel', (model: ReturnType<typeof setup>['model']) => model.setOpen(true)],
    [
      'the launcher asks for the panel while the chat loads',
      (model: ReturnType<typeof setup>['model']) => model.setPanel('pending'),
    ],
  ])('ends when %s, shown or not yet', (_when, open) => {
    const { model } = setup(greeting);
    open(model);
    expect(model.greeted()).toBe(true);
  });

  it('does not end when the panel closes, or the frame is closed', () => {
    const { model } = setup(greeting);
    model.setOpen(false);
    model.setPanel('closed');
    expect(model.greeted()).toBe(false);
  });

  it('writes nothing without a greeting: a page without one leaves the session storage alone', () => {
    const { model, tab } = setup();
    const set = vi.spyOn(tab, 'set');
    model.setPanel('pending');
    model.endGreeting();
    expect(set).not.toHaveBeenCalled();
  });

  it('is forgotten with the open state by reset()', () => {
    const { model } = setup(greeting);
    model.endGreeting();
    model.forget();
    expect(model.greeted()).toBe(false);
  });
});
