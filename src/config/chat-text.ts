import { packString } from './locale.js';
import { DEFAULT_TEXT, type LocalePack, type UiText, type WidgetConfig } from './schema.js';
import { findUnknown, type UnknownKeys } from './unknown.js';

/**
 * The strings of the panel's header menu and what it leads to (feedback, export, delete, a way to a person), and of
 * the consent gate (ui/ConsentGate.tsx). They
 * live in the chat file, not in the launcher: a locale pack carries them by name, which the launcher hands on
 * untouched (`WidgetConfig.pack`).
 */
export const CHAT_TEXT = /* @__PURE__ */ Object.freeze({
  menu: 'More actions',
  copyConversation: 'Copy conversation',
  downloadConversation: 'Download conversation',
  deleteConversation: 'Delete this conversation',
  deleteConfirm: 'Delete this conversation for good? It cannot be brought back.',
  deleteAction: 'Delete',
  cancel: 'Cancel',
  deleteFailed: 'The conversation could not be deleted. Nothing was lost; please try again.',
  deleted: 'Conversation deleted.',
  rateUp: 'Helpful',
  rateDown: 'Not helpful',
  rated: 'Thanks for your feedback.',
  feedbackFailed: 'Your feedback could not be sent.',
  comment: 'What was wrong? (optional)',
  sendComment: 'Send',
  skip: 'Skip',
  talkToPerson: 'Talk to a person',
  conversations: 'Conversations',
  back: 'Back to the chat',
  current: 'Current',
  noConversations: 'No conversations yet.',
  consentTitle: 'Before you chat',
  consentAccept: 'Accept',
  consentDecline: 'Decline',
  consentNeeded: 'Please accept to start chatting.',
  consentAccepted: 'Thank you. You can chat now.',
  consentDeclined: 'You declined, so the chat is off. Nothing you typed was sent.',
  consentReview: 'Read it again',
});

/** The chat file's own UI strings, one per key of `CHAT_TEXT`. */
export type ChatText = { readonly [K in keyof typeof CHAT_TEXT]: string };

/** `input.text`: an object, or its JSON from a `data-text` attribute; {} for anything else. */
function textObject(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    const given: unknown = typeof input.text === 'string' ? JSON.parse(input.text) : input.text;
    if (given && typeof given === 'object') return given as Record<string, unknown>;
  } catch {
    // The launcher has refused a `data-text` that is not JSON already.
  }
  return {};
}

/** `textFooBar`, the key a `data-text-foo-bar` attribute arrives as, for the string `fooBar`. */
const attribute = (key: string) => `text${key[0]!.toUpperCase()}${key.slice(1)}`;

/** Where a site's overrides and a language's strings come from. */
interface TextSources {
  /** The language's locale pack. */
  pack: LocalePack;
  /** The raw settings, whose one-attribute-per-string overrides (`textDeleteAction`) win over `text`. */
  input: Readonly<Record<string, unknown>>;
}

/**
 * One group of strings to resolve: `english`, the strings and their keys; `held`, a config's strings for them (the
 * launcher holds those it draws, "" elsewhere); `given`, the part of `input.text` that overrides them; `errors`,
 * whether they are the error sentences, whose attributes read `textErrors<Kind>` and whose pack keys `errors.<kind>`.
 */
interface TextGroup<T extends object> {
  english: T;
  held: object;
  given: Record<string, unknown>;
  errors?: boolean;
}

/**
 * `english`'s strings, each by its key from the site's override, else from `pack`, else from `held`, else
 * `english`'s own. An override comes from one attribute per string (`data-text-delete-action` arrives as
 * `textDeleteAction`, `data-text-errors-network` as `textErrorsNetwork`), else from `given`. The config's parser has
 * checked each (a non-empty string of at most 500 characters) and refused the config otherwise, so only its type is
 * checked here.
 */
function resolve<T extends object>(group: TextGroup<T>, { pack, input }: TextSources): T {
  const { english, held, given, errors = false } = group;
  const text: Record<string, string> = {};
  for (const [key, fallback] of Object.entries(english)) {
    const name = attribute(key);
    // SECURITY: own keys only, never a lookup on a prototype.
    const value =
      input[errors ? name.replace('text', 'textErrors') : name] ?? (Object.hasOwn(given, key) && given[key]);
    text[key] =
      typeof value === 'string'
        ? value
        : (packString(pack, errors ? `errors.${key}` : key) ??
          ((held as Record<string, string | undefined>)[key] || fallback));
  }
  return text as T;
}

/** The chat file's own strings: `pack`'s by name, English where it has none, as `input` overrides them. */
export function toChatText(pack: LocalePack, input: Readonly<Record<string, unknown>> = {}): ChatText {
  return resolve({ english: CHAT_TEXT, held: {}, given: textObject(input) }, { pack, input });
}

/** A setting visitors read: the site's own (a non-empty `data-title`…), else the pack's, else the default. */
function setting(config: WidgetConfig, pack: LocalePack, key: 'title' | 'welcome' | 'placeholder'): string {
  const given = config.input[key];
  return (typeof given === 'string' && given.trim() && config[key]) || (packString(pack, key) ?? config[key]);
}

/**
 * `config` with every UI string resolved, when the chat is created: the site's override, else the language's pack
 * (`config.pack`, which the launcher loads with the chat), else what the config holds (the launcher's own strings),
 * else English. `title`, `welcome` and `placeholder` likewise: the site's, else the pack's. So the config is parsed
 * once, and the strings follow from it and the pack.
 */
export function localize(config: WidgetConfig): WidgetConfig {
  const { input, pack, text } = config;
  const given = textObject(input);
  return {
    ...config,
    title: setting(config, pack, 'title'),
    welcome: setting(config, pack, 'welcome'),
    placeholder: setting(config, pack, 'placeholder'),
    text: {
      ...resolve({ english: DEFAULT_TEXT, held: text, given }, { pack, input }),
      errors: resolve(
        { english: DEFAULT_TEXT.errors, held: text.errors, given: Object(given.errors), errors: true },
        { pack, input },
      ),
    },
  };
}

/** The strings of the panel's frame, which the launcher draws while the chat file loads or when it cannot. */
export type FrameText = Pick<UiText, 'close' | 'retry' | 'loading' | 'loadFailed' | 'loadFailedHint' | 'limitContact'>;

/**
 * The frame's title and strings in the language of `pack`, resolved as `localize` resolves the chat's: the site's
 * override, else the pack's, else the launcher's English. The pack comes with the chat file, but also when the chat
 * file does not: the frame's failure notice is then in the visitor's language.
 */
export function localizeFrame(config: WidgetConfig, pack: LocalePack = {}): { title: string; text: FrameText } {
  const { close, retry, loading, loadFailed, loadFailedHint, limitContact } = config.text;
  const english = { close, retry, loading, loadFailed, loadFailedHint, limitContact };
  return {
    title: setting(config, pack, 'title'),
    text: resolve({ english, held: {}, given: textObject(config.input) }, { pack, input: config.input }),
  };
}

/**
 * The name of the greeting's close button (mount/greeting.ts) in the language of `pack`, resolved as the frame's
 * strings are: the site's override, else the pack's, else the launcher's English.
 */
export const localizeGreeting = (config: WidgetConfig, pack: LocalePack = {}): string =>
  resolve(
    { english: { dismissGreeting: config.text.dismissGreeting }, held: {}, given: textObject(config.input) },
    { pack, input: config.input },
  ).dismissGreeting;

/**
 * The text keys of `input` that name no UI string, the launcher's (`DEFAULT_TEXT`) nor the chat file's: e.g.
 * `textSendd`, `text.sendd`, `text.errors.htp`, likely typos worth one warning, each with the key it is likely a
 * typo of (`textSend`, `text.send`, `text.errors.http`). The launcher leaves them to the chat file, which knows both.
 */
export function unknownTextKeys(input: Readonly<Record<string, unknown>>): UnknownKeys {
  const { errors, ...strings } = DEFAULT_TEXT;
  const names = [...Object.keys(strings), ...Object.keys(CHAT_TEXT)];
  const errorNames = Object.keys(errors);
  // `errors.network` arrives as `textErrorsNetwork`.
  const attributes = [...names, ...errorNames.map((key) => `errors${attribute(key).slice(4)}`)].map(attribute);
  const given = textObject(input);
  // Keys and names with their level's prefix (`text.errors.htp`): a key is then nearest the names of its own level.
  return findUnknown(
    [
      ...Object.keys(input).filter((key) => /^text[A-Z]/.test(key)),
      ...Object.keys(given)
        .filter((key) => key !== 'errors')
        .map((key) => `text.${key}`),
      ...Object.keys(Object(given.errors)).map((key) => `text.errors.${key}`),
    ],
    [...attributes, ...names.map((key) => `text.${key}`), ...errorNames.map((key) => `text.errors.${key}`)],
  );
}
