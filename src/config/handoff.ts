import { LINK } from './parse.js';

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

const RULES: Readonly<Record<HandoffKey, readonly [RegExp, string]>> = {
  handoffUrl: [LINK, 'an http(s) URL'],
  handoffEmail: [EMAIL, 'an email address'],
  handoffParam: [PARAM, 'a query parameter name (letters, digits, "-" or "_")'],
};

/**
 * The handoff settings of `input` (the widget's settings as given). They are read here, in the chat file, so that
 * the launcher carries none of their rules; a bad value leaves "Talk to a person" out and is named in one console
 * error, the rest of the chat working as usual.
 */
export function parseHandoff(input: Readonly<Record<string, unknown>>): Handoff {
  const given: Partial<Record<HandoffKey, string>> = {};
  const bad: string[] = [];
  for (const [key, [pattern, what]] of Object.entries(RULES) as [HandoffKey, readonly [RegExp, string]][]) {
    const value = input[key];
    const text = typeof value === 'string' ? value.trim() : '';
    if (pattern.test(text)) given[key] = text;
    else if (value !== undefined && value !== '')
      bad.push(
        `\n  - data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${JSON.stringify(value)} must be ${what}`,
      );
  }
  if (bad.length > 0) {
    console.error(`[askbox] "Talk to a person" is left out because its settings are wrong:${bad.join('')}`);
    return {};
  }
  return { url: given.handoffUrl, email: given.handoffEmail, param: given.handoffParam };
}
