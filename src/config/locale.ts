import { DEFAULT_TEXT, DEFAULTS, type UiText } from './schema.js';
import { ar } from './locales/ar.js';
import { de } from './locales/de.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { he } from './locales/he.js';
import { it } from './locales/it.js';
import { ja } from './locales/ja.js';
import { nl } from './locales/nl.js';
import { pl } from './locales/pl.js';
import { pt } from './locales/pt.js';
import { zh } from './locales/zh.js';

/** A language's UI strings, and the defaults of the settings visitors read (title, welcome, placeholder). */
export interface LocaleText {
  text: UiText;
  title: string;
  welcome: string;
  placeholder: string;
}

/** The language the UI speaks, and the tag dates and numbers are formatted for (`de-CH` keeps its region). */
export interface Locale {
  /** A canonical BCP 47 tag, safe to hand to `Intl`. */
  tag: string;
  /** The key of the strings used: a supported language, else `en`. */
  language: string;
  dir: 'ltr' | 'rtl';
}

/**
 * Every language but English (whose strings are `DEFAULT_TEXT` and `DEFAULTS`), each one string per line in the
 * order of `lineKeys()`: terse in the bundle, and the locale test checks every line is there and translated.
 */
const TABLES: Readonly<Record<string, string>> = { ar, de, es, fr, he, it, ja, nl, pl, pt, zh };
const RTL = new Set(['ar', 'he']);

/** The supported languages, English included. */
export const LANGUAGES: readonly string[] = ['en', ...Object.keys(TABLES)];

/** The keys a table's lines fill, in order: the UI strings, the error sentences, then the visitor-facing settings. */
export function lineKeys(): string[] {
  const { errors, ...strings } = DEFAULT_TEXT;
  return [
    ...Object.keys(strings),
    ...Object.keys(errors).map((key) => `errors.${key}`),
    'title',
    'welcome',
    'placeholder',
  ];
}

/** A tag `Intl` accepts, canonicalised (`pt-br` → `pt-BR`), or undefined. */
export function canonicalTag(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'))[0];
  } catch {
    return undefined;
  }
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
    // Canonical tags are already normalised: `iw` (old Hebrew) reads `he`.
    const language = tag.split('-')[0]!.toLowerCase();
    if (LANGUAGES.includes(language)) return { tag, language, dir: RTL.has(language) ? 'rtl' : 'ltr' };
    if (requested) return { tag, language: 'en', dir: 'ltr' };
  }
  return { tag: 'en', language: 'en', dir: 'ltr' };
}

/** The strings of a supported `language`; English for any other. */
export function localeText(language: string): LocaleText {
  const lines = TABLES[language]?.trim().split('\n') ?? [];
  const keys = lineKeys();
  const get = (key: string) => lines[keys.indexOf(key)]?.trim() || undefined;
  const { errors, ...strings } = DEFAULT_TEXT;
  return {
    text: lines.length ? { ...fill(strings, get), errors: fill(errors, get, 'errors.') } : DEFAULT_TEXT,
    title: get('title') ?? DEFAULTS.title,
    welcome: get('welcome') ?? DEFAULTS.welcome,
    placeholder: get('placeholder') ?? DEFAULTS.placeholder,
  };
}

/** `defaults` with each string `get` has a line for replaced. */
function fill<T extends Record<string, string>>(defaults: T, get: (key: string) => string | undefined, prefix = ''): T {
  const filled: Record<string, string> = { ...defaults };
  for (const key of Object.keys(defaults)) filled[key] = get(prefix + key) ?? filled[key]!;
  return filled as T;
}
