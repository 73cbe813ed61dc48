import { LINK } from './parse.js';
import type { WidgetConfig } from './schema.js';

/** The settings of "Talk to a person": `data-handoff-url`, `data-handoff-email`, `data-handoff-param`. */
export type HandoffKey = 'handoffUrl' | 'handoffEmail' | 'handoffParam';

/** The site's way to a person, checked. */
export interface Handoff {
  url?: string | undefined;
  email?: string | undefined;
  param?: string | undefined;
}

// SECURITY: the address goes into a `mailto:` href; no `?`, `&`, `%` or `#` can add a header or a recipient.
const EMAIL = /^[\w.+-]{1,64}@[\w-]+(\.[\w-]+)+$/;
const PARAM = /^[\w-]{1,64}$/;

/** Each setting's rule, the pattern its value must match. */
const PATTERNS: Readonly<Record<HandoffKey, RegExp>> = { handoffUrl: LINK, handoffEmail: EMAIL, handoffParam: PARAM };

/** What each setting must be, as the console error names it. */
const MUST_BE: Readonly<Record<HandoffKey, string>> = {
  handoffUrl: 'an http(s) URL',
  handoffEmail: 'an email address',
  handoffParam: 'a query parameter name (letters, digits, "-" or "_")',
};

/** The handoff settings of `input` its rules accept (trimmed), and those it refuses (given, but not matching). */
function readHandoff(input: Readonly<Record<string, unknown>>) {
  const given: Partial<Record<HandoffKey, string>> = {};
  const refused: HandoffKey[] = [];
  for (const [key, pattern] of Object.entries(PATTERNS) as [HandoffKey, RegExp][]) {
    const value = input[key];
    const text = typeof value === 'string' ? value.trim() : '';
    if (pattern.test(text)) given[key] = text;
    else if (value !== undefined && value !== '') refused.push(key);
  }
  return { given, refused };
}

/**
 * The handoff settings of `input` (the widget's settings as given). They are read here, in the chat file, so that
 * the launcher carries none of their rules; a bad value leaves "Talk to a person" out and is named in one console
 * error, the rest of the chat working as usual.
 */
export function parseHandoff(input: Readonly<Record<string, unknown>>): Handoff {
  const { given, refused } = readHandoff(input);
  if (refused.length > 0) {
    const named = refused.map(
      (key) =>
        `\n  - data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${JSON.stringify(input[key])} must be ${MUST_BE[key]}`,
    );
    console.error(`[askbox] "Talk to a person" is left out because its settings are wrong:${named.join('')}`);
    return {};
  }
  return { url: given.handoffUrl, email: given.handoffEmail, param: given.handoffParam };
}

/**
 * Where a visitor reaches the site when the chat cannot load: its contact page, else an email to its address (the
 * settings of "Talk to a person", left out when one is wrong, as the chat leaves them out), else the page the limit
 * notice links to; undefined when the site gives none. Quiet: the chat file names wrong settings, not the launcher,
 * which carries only their patterns for this.
 */
export function contactHref(config: Pick<WidgetConfig, 'input' | 'limitLink'>): string | undefined {
  const { given, refused } = readHandoff(config.input);
  const { handoffUrl: url, handoffEmail: email } = refused.length > 0 ? {} : given;
  return url ?? (email ? `mailto:${email}` : config.limitLink);
}
