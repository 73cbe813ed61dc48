import { DEFAULT_TEXT, DEFAULTS, type UiText, type WidgetConfig } from './schema.js';

/** A language's UI strings, and the defaults of the settings visitors read (title, welcome, placeholder). */
export interface LocaleText {
  text: UiText;
  title: string;
  welcome: string;
  placeholder: string;
  /** The lines past `lineKeys()`'s: the chat file's strings (config/chat-text.ts). */
  chatLines: readonly string[];
}

/**
 * A locale pack as fetched: its lines when it is a table of at least the expected strings, else undefined. Lines past
 * `lineKeys()`'s are the chat file's own strings (config/chat-text.ts), handed on as they are.
 */
export function parsePack(value: unknown): string[] | undefined {
  return Array.isArray(value) &&
    value.length >= lineKeys().length &&
    value.every((line) => typeof line === 'string' && line.trim() && line.length <= 500)
    ? value
    : undefined;
}

/** The language the UI speaks, and the tag dates and numbers are formatted for (`de-CH` keeps its region). */
export interface Locale {
  /** A canonical BCP 47 tag, safe to hand to `Intl`. */
  tag: string;
  /** The key of the strings used: a supported language, else `en`. */
  language: string;
  dir: 'ltr' | 'rtl';
}

const RTL = new Set(['ar', 'he']);

/** The supported languages, English included. */
export const LANGUAGES: readonly string[] = ['en', 'ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'zh'];

/**
 * The launcher's name where it is not the English "Chat": the launcher shows at load, before any locale pack is
 * fetched, and a screen reader reads its name first. (The packs repeat it: the locale test keeps the two in step.)
 */
const LAUNCHER: Readonly<Record<string, string>> = {
  ar: 'الدردشة',
  he: 'צ׳אט',
  ja: 'チャット',
  pl: 'Czat',
  zh: '聊天',
};

/**
 * The English the launcher draws itself (its name, the unread count, the frame shown while the chat file loads);
 * every other string is "" here and comes with the chat file (`withEnglish`), so that a page view which never opens
 * the chat does not carry it. Its keys, in this order, are the lines of a locale pack (`lineKeys`); the locale test
 * holds keys and strings to `DEFAULT_TEXT`'s.
 */
export const LAUNCHER_TEXT: UiText = {
  launcher: 'Chat',
  close: 'Close',
  newConversation: '',
  send: '',
  stop: '',
  inputLabel: '',
  conversationLabel: '',
  jumpToLatest: '',
  sources: '',
  thinking: '',
  stopped: '',
  retry: 'Retry',
  dismiss: '',
  replyFailed: '',
  flagged: '',
  you: '',
  assistant: '',
  tooLong: '',
  rateLimitWait: '',
  conversationLimitWait: '',
  copyReply: '',
  copyCode: '',
  copied: '',
  starters: '',
  cleared: '',
  undo: '',
  limitReached: '',
  limitContact: '',
  stillWorking: '',
  code: '',
  table: '',
  unread: '{count} unread',
  loading: 'Loading…',
  loadFailed: 'The chat could not be loaded.',
  waiting: '',
  errors: { config: '', auth: '', network: '', http: '', rate_limit: '', stream: '', not_found: '' },
};

/** The keys a table's lines fill, in order: the UI strings, the error sentences, then the visitor-facing settings. */
export function lineKeys(): string[] {
  const { errors, ...strings } = LAUNCHER_TEXT;
  return [
    ...Object.keys(strings),
    ...Object.keys(errors).map((key) => `errors.${key}`),
    'title',
    'welcome',
    'placeholder',
  ];
}

/** A language tag's language, script and region, the rest (variants, extensions) left aside. */
const TAG = /^([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?(?=(?:-[a-z\d]{1,8})*$)/i;

/**
 * The language, script and region of `tag` in canonical case (`pt-br` → `pt-BR`, `en_GB` → `en-GB`, and `iw`, the
 * old tag of Hebrew, → `he`): a tag `Intl` accepts; undefined for what is not a language tag. Read without `Intl`,
 * whose first use costs the page a millisecond or two of locale data at load.
 */
export function canonicalTag(tag: string): string | undefined {
  const [, language, script, region] = TAG.exec(tag.trim().replace(/_/g, '-')) ?? [];
  if (!language) return undefined;
  const base = language.toLowerCase();
  return [
    base === 'iw' ? 'he' : base,
    script && script.charAt(0).toUpperCase() + script.slice(1).toLowerCase(),
    region?.toUpperCase(),
  ]
    .filter(Boolean)
    .join('-');
}

/**
 * The locale to speak: `requested` (the `data-locale` attribute) when given, else the first of `languages` (the
 * page's `<html lang>`, then the browser's languages) Askbox has strings for, else English. A requested language
 * without strings still formats dates and numbers its way.
 */
export function resolveLocale(requested: string | undefined, languages: readonly string[]): Locale {
  const candidates = requested ? [requested] : languages;
  for (const candidate of candidates) {
    const tag = canonicalTag(candidate);
    if (!tag) continue;
    const language = tag.split('-')[0]!;
    if (LANGUAGES.includes(language)) return { tag, language, dir: RTL.has(language) ? 'rtl' : 'ltr' };
    if (requested) return { tag, language: 'en', dir: 'ltr' };
  }
  return { tag: 'en', language: 'en', dir: 'ltr' };
}

/**
 * The strings of `language` from `lines`, its table (a locale pack). Without them, English but for the launcher's
 * name, which every language has at hand.
 */
export function localeText(language: string, lines: readonly string[] = []): LocaleText {
  return readTable(DEFAULT_TEXT, language, lines);
}

/**
 * `localeText` as the script tag's launcher reads it: English only where the launcher draws it (`LAUNCHER_TEXT`),
 * the chat's own strings "" until the chat file completes them (`withEnglish`) or the language's pack fills them.
 */
export function launcherLocaleText(language: string, lines: readonly string[] = []): LocaleText {
  return readTable(LAUNCHER_TEXT, language, lines);
}

/** `config` with each UI string still "" (see `LAUNCHER_TEXT`) in English: the chat file's part of the defaults. */
export function withEnglish(config: WidgetConfig): WidgetConfig {
  const { errors, ...strings } = DEFAULT_TEXT;
  return { ...config, text: { ...fill(strings, from(config.text)), errors: fill(errors, from(config.text.errors)) } };
}

/** A lookup of the strings `given` holds: "" reads as none. */
const from = (given: object) => (key: string) => (given as Record<string, string>)[key] || undefined;

function readTable(english: UiText, language: string, lines: readonly string[]): LocaleText {
  const keys = lineKeys();
  const get = (key: string) =>
    lines[keys.indexOf(key)]?.trim() || (key === 'launcher' ? LAUNCHER[language] : undefined);
  const { errors, ...strings } = english;
  return {
    text: language === 'en' ? english : { ...fill(strings, get), errors: fill(errors, get, 'errors.') },
    title: get('title') ?? DEFAULTS.title,
    welcome: get('welcome') ?? DEFAULTS.welcome,
    placeholder: get('placeholder') ?? DEFAULTS.placeholder,
    chatLines: lines.slice(keys.length),
  };
}

/** `defaults` with each string `get` has a line for replaced. */
function fill<T extends Record<string, string>>(defaults: T, get: (key: string) => string | undefined, prefix = ''): T {
  const filled: Record<string, string> = { ...defaults };
  for (const key of Object.keys(defaults)) filled[key] = get(prefix + key) ?? filled[key]!;
  return filled as T;
}
