import type { HandoffKey } from './handoff.js';
import { parseIdentity, type Identity } from './identity.js';
import { canonicalTag, launcherLocaleText, localeText, resolveLocale } from './locale.js';
import {
  messageLength,
  DEFAULTS,
  MAX_DOCUMENT_IDS,
  STREAM_TIMEOUT_RANGE,
  THEMES,
  type Direction,
  type LocalePack,
  type Mode,
  type Position,
  type UiText,
  type WidgetConfig,
} from './schema.js';
import { parsePaths } from './paths.js';
import { parseText } from './text.js';
import { unknownTextKeys } from './chat-text.js';
import { findUnknown, type UnknownKeys } from './unknown.js';

/** One problem found in the input, named by its config key. */
export interface ConfigIssue {
  key: keyof WidgetConfig;
  message: string;
}

/**
 * `parseConfig`'s result: a config, or every issue found (never both); and either way the keys it ignored
 * (`unknown`, e.g. `"colour"` or `"text.sendd"`: likely typos worth one warning, with the known key each is `closest`
 * to), so that a typo is named even next to an issue (`data-botid` makes `data-bot-id` missing).
 */
export type ParseResult = UnknownKeys & {
  /** A signed-in visitor was given but not as a valid pair (see `parseIdentity`): the widget runs anonymous. */
  userRefused?: boolean;
} & ({ config: WidgetConfig; issues?: undefined } | { config?: undefined; issues: ConfigIssue[] });

/**
 * The chat file's settings, which `input` may hold besides the config's own keys: the launcher carries only their
 * names (config/handoff.ts reads them).
 */
const HANDOFF = { handoffUrl: true, handoffEmail: true, handoffParam: true } as const satisfies Record<
  HandoffKey,
  true
>;

/** The two attributes a signed-in visitor comes in (`data-user-id`, `data-user-hash`), read into `user`. */
const USER_ATTRIBUTES = ['userId', 'userHash'];

/**
 * The config's keys that follow from others (`language` and `pack` from `locale`), hold the input itself, or say how
 * it was written.
 */
type Derived = 'language' | 'pack' | 'input' | 'attributePrefix';

/** Every other key of the config, each required even when its value may be undefined, so none can be left out. */
type Settings = { [K in Exclude<keyof WidgetConfig, Derived>]-?: WidgetConfig[K] };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
// SECURITY: the accent ends up inside a stylesheet, so only plain colour literals are accepted:
// no `;`, braces, quotes, `url(` or escapes can get through these patterns.
// The wire contract's WIDGET_RULES.colorPattern, kept here as a literal for the bundle's sake (its names would cost
// bytes); test/unit/config/parse.widget-rules.test.ts holds the two to one behaviour, and the WordPress plugin reads
// the contract.
const COLOR =
  /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%\s/+-]{1,60}\)|[a-z]{3,30})$/i;
// SECURITY: a path must not start with `//` or `/\`: either is a protocol-relative URL to another host (a browser
// reads a backslash in an http(s) URL as a slash). A query is allowed (WordPress's `?rest_route=`), a fragment is not.
const PROXY_URL = /^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?|\/(?![/\\])[^\s?#]*)(\?[^\s#]*)?$/i;
// SECURITY: the limit notice's link goes into an href: only an absolute http(s) URL, never `javascript:` and friends.
export const LINK = /^https?:\/\/[^\s"'<>\\]{1,2000}$/i;
const POSITIONS: readonly Position[] = ['bottom-right', 'bottom-left'];
const MAX_STARTERS = 6;
const MAX_STARTER_LENGTH = 200;
const DIRECTIONS: readonly Direction[] = ['ltr', 'rtl'];
const MODES: readonly Mode[] = ['bubble', 'inline'];
/** A number's bounds, what it is in the error message, and whether it must be whole. */
type NumberRule = readonly [min: number, max: number, what: string, whole: boolean];
const STREAM_TIMEOUT: NumberRule = [...STREAM_TIMEOUT_RANGE, 'a number of seconds', false];
const Z_INDEX: NumberRule = [0, 2147483647, 'a whole number', true];
const OFFSET: NumberRule = [0, 500, 'a whole number of pixels', true];

type Input = Readonly<Record<string, unknown>>;

/** What the config is read against besides its input. */
export interface ConfigEnv {
  /** The page's and the visitor's languages, in order of preference (read only as far as the locale needs). */
  languages?: Iterable<string>;
  /** Locale packs by language (see config/locales), as far as they are at hand. */
  tables?: Readonly<Record<string, LocalePack>>;
  /** Inline mode has its container without a selector (the `<askbox-chat>` element, or `mount()`'s target). */
  inlineTarget?: boolean;
}

/** One UI string per attribute: `data-text-send` arrives as `textSend`. */
const SINGLE_TEXT = /^text[A-Z]/;

/**
 * Validates raw configuration — `data-*` attribute strings from the script tag or typed values from `mount()` —
 * and collects every issue at once, so a site owner fixes the tag in one go.
 * - The UI speaks `locale` when given, else the first of `env.languages` (the page's and the browser's, in order
 *   of preference) Askbox has strings for, else English; its strings come from `env.tables` (without its pack,
 *   only the launcher's name is in that language).
 * - `text` overrides any UI string (an object, or its JSON from a `data-text` attribute), and `textSend` (from
 *   `data-text-send`) one string; strings not given keep the locale's.
 * Pure: no DOM, no globals.
 */
export function parseConfig(input: Input, env: ConfigEnv = {}): ParseResult {
  const result = readConfig(input, env, localeText);
  const textKeys = unknownTextKeys(input);
  return {
    ...result,
    unknown: [...result.unknown, ...textKeys.unknown],
    closest: new Map([...result.closest, ...textKeys.closest]),
  };
}

/**
 * `parseConfig` for the script tag's launcher: its config holds only the UI strings the launcher draws (and the
 * site's overrides of those); the chat file resolves every string when it is created (`localize`,
 * config/chat-text.ts), from the overrides, the locale pack that comes with it, and English, so that the launcher
 * carries neither the strings nor their names. For the same reason the chat file, not the launcher, names the text
 * keys it does not know (`unknownTextKeys`).
 */
export function parseLauncherConfig(input: Input, env: ConfigEnv = {}): ParseResult {
  return readConfig(input, env, launcherLocaleText);
}

/**
 * The readers of one input, each of which records its issues with `fail`. They take a setting by its key, which
 * names both the input and its issue: the launcher parses this on every page view, and one key per call is the
 * smallest form of it.
 */
function createReaders(input: Input, fail: Fail) {
  const given = (key: keyof WidgetConfig) => text(input[key]);

  /** A list: an array from `mount()`, or the attribute's text split at `separator`; its items trimmed, empty ones out. */
  const list = (key: keyof WidgetConfig, separator: string): string[] => {
    const value = input[key];
    const items: unknown[] = Array.isArray(value) ? value : given(key).split(separator);
    return items.map((item) => String(item).trim()).filter(Boolean);
  };

  /** A text setting that must match `pattern`, after a `fail` that quotes it when it does not. */
  const checked = (key: keyof WidgetConfig, pattern: RegExp, problem: string): string => {
    const value = given(key);
    if (value && !pattern.test(value)) fail(key, `"${value}" ${problem}`);
    return value;
  };

  const colour = (key: keyof WidgetConfig) =>
    checked(key, COLOR, 'is not a CSS colour (use e.g. "#0b57d0")') || undefined;

  /** A true/false setting: `fallback` when absent, after a `fail` for anything but a boolean or its attribute text. */
  const flag = (key: keyof WidgetConfig, fallback: boolean): boolean => {
    const value = input[key];
    if (value === undefined) return fallback;
    if (value === null || value === false || value === 'false') return false;
    // A bare `data-open` attribute reads as "" and means true, like a boolean HTML attribute.
    if (value === true || value === '' || value === 'true') return true;
    fail(key, 'must be "true" or "false"');
    return fallback;
  };

  const oneOf = <T extends string>(key: keyof WidgetConfig, allowed: readonly T[], fallback: T): T => {
    const value = given(key);
    if (!value) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    fail(key, `"${value}" must be one of ${allowed.join(', ')}`);
    return fallback;
  };

  /** A number that keeps to `rule`, from `mount()` or an attribute's text; undefined when absent. */
  const numberIn = (key: keyof WidgetConfig, [min, max, what, whole]: NumberRule): number | undefined => {
    const value = input[key];
    if (value === undefined || value === null || value === '') return undefined;
    // A number from mount(), or the attribute's text; anything else (an object…) fails the range check below.
    const number = typeof value === 'number' ? value : Number(text(value) || Number.NaN);
    if (!(number >= min && number <= max && (!whole || Number.isInteger(number))))
      fail(key, `must be ${what} from ${min} to ${max}`);
    return number;
  };

  const bounded = (key: keyof WidgetConfig, fallback: string, max: number): string => {
    const value = given(key);
    if (messageLength(value) > max) fail(key, `is longer than ${max} characters`);
    return value || fallback;
  };

  return { given, list, checked, colour, flag, oneOf, numberIn, bounded };
}

/** The readers `createReaders` makes for one input. */
type Readers = ReturnType<typeof createReaders>;

/** The ids of the documents to search: each a valid id, and at most `MAX_DOCUMENT_IDS` of them. */
function readDocumentIds(read: Readers, fail: Fail): string[] {
  const documentIds = read.list('documentIds', ',');
  const badId = documentIds.find((id) => !ID.test(id));
  if (badId !== undefined) fail('documentIds', `"${badId}" is not a valid document id`);
  if (documentIds.length > MAX_DOCUMENT_IDS) fail('documentIds', `accepts at most ${MAX_DOCUMENT_IDS} ids`);
  return documentIds;
}

/** The questions offered before the first message: at most `MAX_STARTERS`, each at most `MAX_STARTER_LENGTH` long. */
function readStarters(read: Readers, fail: Fail): string[] {
  const offered = read.list('starters', '|');
  if (offered.length > MAX_STARTERS) fail('starters', `offers at most ${MAX_STARTERS} questions`);
  if (offered.some((starter) => starter.length > MAX_STARTER_LENGTH))
    fail('starters', `each question must be at most ${MAX_STARTER_LENGTH} characters`);
  return offered;
}

/** The language tag the site asks for, if any, after a `fail` when it is not one. */
function readLocaleTag(read: Readers, fail: Fail): string | undefined {
  const requested = read.given('locale') || undefined;
  if (requested && !canonicalTag(requested))
    fail('locale', `"${requested}" is not a language tag (e.g. "de" or "pt-BR")`);
  return requested;
}

/** The notice shown when the visitor reaches a limit: its message, and a link with its text. */
function readLimitNotice({ bounded, checked }: Readers) {
  const limitMessage = bounded('limitMessage', '', 300) || undefined;
  const limitLinkText = bounded('limitLinkText', '', 80) || undefined;
  const limitLink = checked('limitLink', LINK, 'must be an http(s) URL') || undefined;
  return { limitMessage, limitLink, limitLinkText };
}

/** The UI strings: the locale's `base`, overridden by `text` and the one-attribute-per-string settings. */
function readUiText(input: Input, base: UiText, fail: Fail): UiText {
  const single: Record<string, unknown> = {};
  for (const key of Object.keys(input)) if (SINGLE_TEXT.test(key)) single[key] = input[key];
  return parseText({ text: input.text, single, base }, (message) => fail('text', message));
}

/**
 * The keys of `input` that are no setting (every key `config` has, whatever its value, is one), each with the setting
 * it is likely a typo of. Text keys are left to `unknownTextKeys`.
 */
function unknownKeys(input: Input, config: Settings): UnknownKeys {
  return findUnknown(
    Object.keys(input).filter((key) => !SINGLE_TEXT.test(key)),
    [...Object.keys(config), ...Object.keys(HANDOFF), ...USER_ATTRIBUTES],
  );
}

/**
 * The signed-in visitor: `user: {id, hash}` from `mount()`, else the two attributes. Undefined when none is given,
 * and, with `refused`, when one is given that is not a valid pair.
 */
function readUser(input: Input): { user?: Identity; refused?: boolean } {
  const attributes = USER_ATTRIBUTES.some((key) => input[key] !== undefined);
  const given = input.user ?? (attributes ? { id: input.userId, hash: input.userHash } : undefined);
  if (given === undefined) return {};
  const user = parseIdentity(given);
  return user ? { user } : { refused: true };
}

/** Both parsers' work: every setting read and checked in turn; `readLocale` gives the locale's strings the config holds. */
function readConfig(input: Input, env: ConfigEnv, readLocale: typeof localeText): ParseResult {
  const { languages = [], tables = {} } = env;
  const issues: ConfigIssue[] = [];
  const fail: Fail = (key, message) => void issues.push({ key, message });
  const read = createReaders(input, fail);
  const { given, checked, colour, flag, oneOf, numberIn, bounded } = read;

  const botId = checked('botId', ID, 'is not a valid bot id');
  if (!botId) fail('botId', 'is required (the id of your Cody bot)');

  const proxyUrl = checked('proxyUrl', PROXY_URL, 'must be an http(s) URL or a path starting with "/"');
  if (!proxyUrl) fail('proxyUrl', 'is required (the URL of your Askbox token proxy, e.g. "/askbox")');

  const position = oneOf('position', POSITIONS, DEFAULTS.position);
  const theme = oneOf('theme', THEMES, DEFAULTS.theme);

  const accent = colour('accent');
  const accentText = colour('accentText');

  const open = flag('open', false);
  const launcher = flag('launcher', DEFAULTS.launcher);
  const stream = flag('stream', DEFAULTS.stream);
  const debug = flag('debug', false);

  const documentIds = readDocumentIds(read, fail);
  const offered = readStarters(read, fail);

  const locale = resolveLocale(readLocaleTag(read, fail), languages);
  const pack = tables[locale.language] ?? {};
  const strings = readLocale(locale.language, pack);
  const dir = oneOf('dir', DIRECTIONS, locale.dir);

  // The lengths of the wire contract's WIDGET_RULES, held to them by test/unit/config/parse.widget-rules.test.ts.
  const title = bounded('title', strings.title, 80);
  const welcome = bounded('welcome', strings.welcome, 1000);
  const placeholder = bounded('placeholder', strings.placeholder, 200);
  const launcherLabel = bounded('launcherLabel', '', 60);
  const conversationName = bounded('conversationName', DEFAULTS.conversationName, 100);

  const limitNotice = readLimitNotice(read);

  const streamTimeout = numberIn('streamTimeout', STREAM_TIMEOUT);
  const zIndex = numberIn('zIndex', Z_INDEX);
  const offsetX = numberIn('offsetX', OFFSET);
  const offsetY = numberIn('offsetY', OFFSET);

  const mode = oneOf('mode', MODES, DEFAULTS.mode);
  const target = bounded('target', '', 200) || undefined;
  if (mode === 'inline' && !target && !env.inlineTarget)
    fail('target', 'is required in inline mode (the CSS selector of the container, e.g. "#help-chat")');
  const instance = checked('instance', ID, 'must be 1 to 64 letters, digits, "-" or "_"') || undefined;

  const showOn = parsePaths(input.showOn, (message) => fail('showOn', message));
  const hideOn = parsePaths(input.hideOn, (message) => fail('hideOn', message));

  const { user, refused } = readUser(input);

  const config: Settings = {
    botId,
    proxyUrl: proxyUrl.replace(/\/+$/, ''),
    title,
    welcome,
    placeholder,
    position,
    open,
    launcher,
    launcherLabel,
    accent,
    accentText,
    theme,
    documentIds,
    conversationName,
    ...limitNotice,
    streamTimeout: streamTimeout ?? DEFAULTS.streamTimeout,
    stream,
    styleNonce: given('styleNonce') || undefined,
    text: readUiText(input, strings.text, fail),
    starters: offered,
    locale: locale.tag,
    dir,
    mode,
    target,
    instance,
    zIndex,
    offsetX: offsetX ?? DEFAULTS.offsetX,
    offsetY: offsetY ?? DEFAULTS.offsetY,
    debug,
    showOn,
    hideOn,
    user,
  };
  const unknown = { ...unknownKeys(input, config), userRefused: refused };
  if (issues.length > 0) return { ...unknown, issues };
  return { ...unknown, config: { ...config, input, pack, language: locale.language } };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

type Fail = (key: keyof WidgetConfig, message: string) => void;
