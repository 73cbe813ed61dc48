import { CHAT_TEXT } from '../chat-text.js';
import { DEFAULT_TEXT, type LocalePack } from '../schema.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { zh } from './zh.js';

/**
 * The key of each line of a language's source table above, in order: the UI strings (`DEFAULT_TEXT`'s), the error
 * sentences (`errors.<kind>`), the settings visitors read, then the chat file's own strings (`CHAT_TEXT`). Only the
 * build and the ESM entry read it: the packs they make are keyed by name, so the launcher carries no list of keys.
 */
export const PACK_KEYS: readonly string[] = [
  ...Object.keys(DEFAULT_TEXT).filter((key) => key !== 'errors'),
  ...Object.keys(DEFAULT_TEXT.errors).map((key) => `errors.${key}`),
  'title',
  'welcome',
  'placeholder',
  ...Object.keys(CHAT_TEXT),
];

/** A source table's lines as a locale pack: each line under its key (`PACK_KEYS`). */
const toPack = (table: string): LocalePack =>
  Object.fromEntries(
    table
      .trim()
      .split('\n')
      .map((line, index) => [PACK_KEYS[index] ?? `line ${index + 1}`, line.trim()]),
  );

/**
 * Every language's locale pack but English's (`DEFAULT_TEXT`), keyed by name. The ESM build imports them; the
 * script-tag bundle does not: its build writes each to `askbox-locales/<language>.json`, fetched on the visitor's
 * first sign of interest (see src/embed.ts), so a page pays for one language, not eleven.
 */
export const TABLES: Readonly<Record<string, LocalePack>> = Object.fromEntries(
  Object.entries({ ar, de, es, fr, he, it, ja, nl, pl, pt, zh }).map(([language, table]) => [language, toPack(table)]),
);
