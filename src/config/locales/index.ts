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
 * Every language's strings but English's (`DEFAULT_TEXT`), one per line in the order of `lineKeys()`, then the chat file's own (`CHAT_TEXT`, config/chat-text.ts). The ESM
 * build imports them; the script-tag bundle does not: its build writes each to `askbox-locales/<language>.json`,
 * fetched on the visitor's first sign of interest (see src/embed.ts), so a page pays for one language, not eleven.
 */
export const TABLES: Readonly<Record<string, string>> = { ar, de, es, fr, he, it, ja, nl, pl, pt, zh };
