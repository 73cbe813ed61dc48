import {
  DEFAULT_TEXT,
  DEFAULTS,
  MAX_DOCUMENT_IDS,
  THEMES,
  type Position,
  type UiText,
  type WidgetConfig,
} from './schema.js';

/** One problem found in the input, named by its config key. */
export interface ConfigIssue {
  key: keyof WidgetConfig;
  message: string;
}

/**
 * `parseConfig`'s result: a config and the keys it ignored (`unknown`, e.g. `"colour"` or `"text.sendd"`: likely
 * typos worth one warning), or every issue found (never both).
 */
export type ParseResult =
  | { config: WidgetConfig; unknown: string[]; issues?: undefined }
  | { config?: undefined; unknown?: undefined; issues: ConfigIssue[] };

/** Every config key, once; `satisfies` makes the compiler name any key added to `WidgetConfig` and missed here. */
const KEYS = {
  botId: true,
  proxyUrl: true,
  title: true,
  welcome: true,
  placeholder: true,
  position: true,
  open: true,
  launcher: true,
  launcherLabel: true,
  accent: true,
  theme: true,
  documentIds: true,
  conversationName: true,
  styleNonce: true,
  text: true,
} as const satisfies Record<keyof WidgetConfig, true>;

/** The longest UI string a site may set. */
const MAX_TEXT_LENGTH = 500;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
// SECURITY: the accent ends up inside a stylesheet, so only plain colour literals are accepted:
// no `;`, braces, quotes, `url(` or escapes can get through these patterns.
const COLOR =
  /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%\s/+-]{1,60}\)|[a-z]{3,30})$/i;
// A path must not start with `//`: that is a protocol-relative URL to another host.
const PROXY_URL = /^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?|\/(?!\/)[^\s?#]*)$/i;
const POSITIONS: readonly Position[] = ['bottom-right', 'bottom-left'];

type Input = Readonly<Record<string, unknown>>;

/**
 * Validates raw configuration — `data-*` attribute strings from the script tag or typed values from `mount()` —
 * and collects every issue at once, so a site owner fixes the tag in one go. `text` overrides any UI string (an
 * object, or its JSON from a `data-text` attribute); strings not given keep their defaults. Pure: no DOM, no globals.
 */
export function parseConfig(input: Input): ParseResult {
  const issues: ConfigIssue[] = [];
  const fail: Fail = (key, message) => void issues.push({ key, message });

  const botId = text(input.botId);
  if (!botId) fail('botId', 'is required (the id of your Cody bot)');
  else if (!ID.test(botId)) fail('botId', `"${botId}" is not a valid bot id`);

  const proxyUrl = text(input.proxyUrl);
  if (!proxyUrl) fail('proxyUrl', 'is required (the URL of your Askbox token proxy, e.g. "/askbox")');
  else if (!PROXY_URL.test(proxyUrl))
    fail('proxyUrl', `"${proxyUrl}" must be an http(s) URL or a path starting with "/"`);

  const position = oneOf(input.position, POSITIONS, DEFAULTS.position, 'position', fail);
  const theme = oneOf(input.theme, THEMES, DEFAULTS.theme, 'theme', fail);

  const accent = text(input.accent) || undefined;
  if (accent && !COLOR.test(accent)) fail('accent', `"${accent}" is not a CSS colour (use e.g. "#0b57d0")`);

  const open = bool(input.open);
  if (open === undefined) fail('open', 'must be "true" or "false"');
  const launcher = input.launcher === undefined ? DEFAULTS.launcher : bool(input.launcher);
  if (launcher === undefined) fail('launcher', 'must be "true" or "false"');

  const documentIds = list(input.documentIds);
  const badId = documentIds.find((id) => !ID.test(id));
  if (badId !== undefined) fail('documentIds', `"${badId}" is not a valid document id`);
  if (documentIds.length > MAX_DOCUMENT_IDS) fail('documentIds', `accepts at most ${MAX_DOCUMENT_IDS} ids`);

  const title = bounded(input.title, DEFAULTS.title, 80, 'title', fail);
  const welcome = bounded(input.welcome, DEFAULTS.welcome, 1000, 'welcome', fail);
  const launcherLabel = bounded(input.launcherLabel, '', 60, 'launcherLabel', fail);
  const placeholder = bounded(input.placeholder, DEFAULTS.placeholder, 200, 'placeholder', fail);
  const conversationName = bounded(input.conversationName, DEFAULTS.conversationName, 100, 'conversationName', fail);

  const unknown = Object.keys(input).filter((key) => !Object.hasOwn(KEYS, key));
  const uiText = parseText(input.text, fail, unknown);

  if (issues.length > 0) return { issues };
  return {
    unknown,
    config: {
      botId,
      proxyUrl: proxyUrl.replace(/\/+$/, ''),
      title,
      welcome,
      placeholder,
      position,
      open: open === true,
      launcher: launcher !== false,
      launcherLabel,
      accent,
      theme,
      documentIds,
      conversationName,
      styleNonce: text(input.styleNonce) || undefined,
      text: uiText,
    },
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function bool(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === false || value === 'false') return false;
  // A bare `data-open` attribute reads as "" and means true, like a boolean HTML attribute.
  if (value === true || value === '' || value === 'true') return true;
  return undefined;
}

function list(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items.map((item) => String(item).trim()).filter(Boolean);
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  fallback: T,
  key: keyof WidgetConfig,
  fail: Fail,
): T {
  const given = text(value);
  if (!given) return fallback;
  if ((allowed as readonly string[]).includes(given)) return given as T;
  fail(key, `"${given}" must be one of ${allowed.join(', ')}`);
  return fallback;
}

function bounded(value: unknown, fallback: string, max: number, key: keyof WidgetConfig, fail: Fail): string {
  const given = text(value);
  if (given.length > max) fail(key, `is longer than ${max} characters`);
  return given || fallback;
}

type Fail = (key: keyof WidgetConfig, message: string) => void;

/** The UI strings: the defaults, with each valid override from `value` applied and unknown keys recorded. */
function parseText(value: unknown, fail: Fail, unknown: string[]): UiText {
  if (value === undefined || value === null || value === '') return DEFAULT_TEXT;
  let given: unknown = value;
  if (typeof value === 'string') {
    try {
      given = JSON.parse(value);
    } catch {
      fail('text', 'is not valid JSON (e.g. {"send": "Senden"})');
      return DEFAULT_TEXT;
    }
  }
  if (!isRecord(given)) {
    fail('text', 'must be an object of UI strings (e.g. {"send": "Senden"})');
    return DEFAULT_TEXT;
  }
  const { errors, ...strings } = given;
  const merged = { ...DEFAULT_TEXT, ...overrides(DEFAULT_TEXT, strings, 'text', fail, unknown) };
  if (errors !== undefined) {
    if (isRecord(errors))
      merged.errors = {
        ...DEFAULT_TEXT.errors,
        ...overrides(DEFAULT_TEXT.errors, errors, 'text.errors', fail, unknown),
      };
    else fail('text', 'errors must be an object of UI strings');
  }
  return merged;
}

/** The entries of `given` that override a string of `defaults`; every other key is recorded as unknown. */
function overrides(
  defaults: object,
  given: Record<string, unknown>,
  path: string,
  fail: Fail,
  unknown: string[],
): Record<string, string> {
  const valid: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    // SECURITY: own keys only, so `__proto__`, `constructor` and friends are unknown keys, never lookups.
    if (!Object.hasOwn(defaults, key)) unknown.push(`${path}.${key}`);
    else if (typeof value !== 'string' || !value.trim() || value.length > MAX_TEXT_LENGTH)
      fail('text', `${path}.${key} must be a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    else valid[key] = value;
  }
  return valid;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
