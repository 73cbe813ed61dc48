import type { UiText } from './schema.js';

/** The longest UI string a site may set. */
const MAX_TEXT_LENGTH = 500;

/** Records a problem with the `text` setting. */
type Fail = (message: string) => void;

/** What the `text` settings are read from. */
interface TextSettings {
  /** The `text` setting: an object, or its JSON from a `data-text` attribute. */
  text: unknown;
  /** The one-attribute-per-string settings, by the key each arrives as (`textSend`, `textErrorsNetwork`). */
  single: Readonly<Record<string, unknown>>;
  /** The locale's strings, which the valid overrides replace. */
  base: UiText;
}

/**
 * The UI strings: `base` (the locale's), with each valid override of one of its keys applied. Overrides come from
 * `text` (an object, or its JSON from a `data-text` attribute) and, winning over it, from one attribute per string:
 * `data-text-send` arrives as `textSend`, `data-text-errors-network` as `textErrorsNetwork`; `single` holds those
 * keys and their values. Every override is checked, of a key `base` has or not: the launcher's `base` holds only the
 * strings it draws, and does not carry the names of the others, which the chat file reads itself (`localize`,
 * config/chat-text.ts) and names when unknown (`unknownTextKeys`).
 */
export function parseText({ text, single, base }: TextSettings, fail: Fail): UiText {
  const given = fromJson(text, fail) ?? {};
  const { errors = {}, ...strings } = given;
  if (!isRecord(errors)) fail('errors must be an object of UI strings');
  const errorStrings = isRecord(errors) ? { ...errors } : {};
  for (const [key, value] of Object.entries(single)) {
    // `textSend` → `send`; `textErrorsNetwork` → `errors.network`.
    const name = lowerFirst(key.slice(4));
    // A bare `textErrors` names no string: `unknownTextKeys` warns of it.
    if (/^errors[A-Z]/.test(name)) errorStrings[lowerFirst(name.slice(6))] = value;
    else if (name !== 'errors') strings[name] = value;
  }
  if (Object.keys(strings).length === 0 && Object.keys(errorStrings).length === 0) return base;
  return {
    ...base,
    ...overrides({ defaults: base, given: strings, path: 'text' }, fail),
    errors: { ...base.errors, ...overrides({ defaults: base.errors, given: errorStrings, path: 'text.errors' }, fail) },
  };
}

/** The object `value` is or holds as JSON; undefined (after a `fail`) for anything else, nothing for nothing. */
function fromJson(value: unknown, fail: Fail): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let given: unknown = value;
  if (typeof value === 'string') {
    try {
      given = JSON.parse(value);
    } catch {
      fail('is not valid JSON (e.g. {"send": "Senden"})');
      return undefined;
    }
  }
  if (isRecord(given)) return given;
  fail('must be an object of UI strings (e.g. {"send": "Senden"})');
  return undefined;
}

/** Overrides of one group of strings: `given` replaces strings of `defaults`, and `path` names them in issues. */
interface Overrides {
  defaults: object;
  given: Record<string, unknown>;
  path: string;
}

/** The entries of `given` that override a string of `defaults`, after a `fail` for each that is not a UI string. */
function overrides({ defaults, given, path }: Overrides, fail: Fail): Record<string, string> {
  const valid: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (!isUiString(value)) fail(`${path}.${key} must be a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    // SECURITY: own keys only, so `__proto__`, `constructor` and friends are never lookups.
    else if (Object.hasOwn(defaults, key)) valid[key] = value;
  }
  return valid;
}

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** A UI string a site or a locale pack may give: not blank, and at most `MAX_TEXT_LENGTH` characters. */
export const isUiString = (value: unknown): value is string =>
  typeof value === 'string' && Boolean(value.trim()) && value.length <= MAX_TEXT_LENGTH;

/** A plain object (not null, not an array): what `text` and a locale pack must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
