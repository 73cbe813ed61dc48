import { DEFAULT_TEXT, DEFAULTS, type LocalePack, type UiText } from './schema.js';
import { isRecord, isUiString } from './text.js';

/** A language's UI strings, and the defaults of the settings visitors read (title, welcome, placeholder). */
export interface LocaleText {
  text: UiText;
  title: string;
  welcome: string;
  placeholder: string;
}

/**
 * A locale pack as fetched, checked at the boundary: an object of non-empty strings of at most 500 characters, else
 * undefined. Its keys are not checked against a list (the launcher carries none, for its bytes): strings are read
 * by name and own key only (`packString`), so a key no string has is never read, and `__proto__` is just a key.
 */
export function parsePack(value: unknown): LocalePack | undefined {
  return isRecord(value) && Object.values(value).every(isUiString) ? (value as LocalePack) : undefined;
}

/** The string `pack` has for `key`, without spaces around it; undefined for none. SECURITY: own keys only. */
export const packString = (pack: LocalePack, key: string): string | undefined =>
  (Object.hasOwn(pack, key) && pack[key]?.trim()) || undefined;

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
 * The English the launcher draws itself (its name, the unread count, the greeting's close button, the frame shown
 * while the chat file loads, or when it could not: its notice, Retry, and a link to the site's contact).
 * Every other string comes with the chat file (config/chat-text.ts, `localize`), by name from the language's pack or
 * in English, so that a page view which never opens the chat carries neither the strings nor their names. The locale
 * test holds these to `DEFAULT_TEXT`'s.
 */
export const LAUNCHER_TEXT = {
  launcher: 'Chat',
  close: 'Close',
  retry: 'Retry',
  unread: '{count} unread',
  loading: 'Loading…',
  loadFailed: 'The chat could not be loaded.',
  loadFailedHint: 'Please check your connection and try again.',
  limitContact: 'Contact us',
  dismissGreeting: 'Dismiss greeting',
  errors: {},
} as const;

/**
 * A language tag's language, script and region, the rest (variants, extensions) left aside. Both cases are spelt out
 * rather than flagged `i`: Chromium works out case-insensitive classes when it first runs a pattern, which cost
 * 0.1–0.2 ms at every page view's boot (`<html lang>` is read then).
 */
const TAG = /^([a-zA-Z]{2,3})(?:-([a-zA-Z]{4}))?(?:-([a-zA-Z]{2}|\d{3}))?(?=(?:-[a-zA-Z\d]{1,8})*$)/;

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
export function resolveLocale(requested: string | undefined, languages: Iterable<string>): Locale {
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
 * The strings of `language` from `pack`, its locale pack. Without it, English but for the launcher's name, which
 * every language has at hand.
 */
export function localeText(language: string, pack: LocalePack = {}): LocaleText {
  return readPack(DEFAULT_TEXT, language, pack);
}

/**
 * `localeText` as the script tag's launcher reads it, before any pack: the strings it draws (`LAUNCHER_TEXT`), its
 * name in the language, and the English defaults of the settings; the chat file resolves the rest (`localize`,
 * config/chat-text.ts) from the pack it loads with.
 */
export function launcherLocaleText(language: string): LocaleText {
  const { title, welcome, placeholder } = DEFAULTS;
  const text = { ...LAUNCHER_TEXT, launcher: LAUNCHER[language] ?? LAUNCHER_TEXT.launcher };
  // The launcher's config holds only the strings it draws; the chat file completes them when it is created.
  return { text: text as unknown as UiText, title, welcome, placeholder };
}

function readPack(english: UiText, language: string, pack: LocalePack): LocaleText {
  const get = (key: string) => packString(pack, key) ?? (key === 'launcher' ? LAUNCHER[language] : undefined);
  const { errors, ...strings } = english;
  return {
    text: language === 'en' ? english : { ...fill(strings, get), errors: fill(errors, get, 'errors.') },
    title: get('title') ?? DEFAULTS.title,
    welcome: get('welcome') ?? DEFAULTS.welcome,
    placeholder: get('placeholder') ?? DEFAULTS.placeholder,
  };
}

/** `defaults` with each string `get` has replaced. */
function fill<T extends Record<string, string>>(defaults: T, get: (key: string) => string | undefined, prefix = ''): T {
  const filled: Record<string, string> = { ...defaults };
  for (const key of Object.keys(defaults)) filled[key] = get(prefix + key) ?? filled[key]!;
  return filled as T;
}
