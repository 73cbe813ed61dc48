import { readFileSync } from 'node:fs';

/**
 * One scripted reply. Entries with `match` answer every message that contains that text as whole words
 * (case-insensitive: "stall" answers "a stall, please" but not "installing");
 * entries without are used once each, in order. Messages nothing matches get a knowledge-base answer.
 */
export interface ScenarioReply {
  match?: string;
  /** With `match`: answer only the first matching message, then step aside. */
  once?: boolean;
  /** Markdown of the reply; default: the knowledge-base answer. */
  text?: string;
  /** Characters per stream chunk; an array is cycled through (default 12). */
  chunkSize?: number | number[];
  /** Milliseconds between chunks (default 25). */
  delayMs?: number;
  /** Milliseconds before the stream answers at all; for `POST /messages`, before the whole reply is ready. */
  firstByteDelayMs?: number;
  /** Knowledge-base document names or ids to cite; default: the documents the answer used. */
  sources?: string[];
  flagged?: boolean;
  failedResponding?: boolean;
  /** Answer the send call with this HTTP status instead (402 uses the exact quota body; 500 stores a failed reply). */
  status?: number;
  /** The `message` of that error response. */
  message?: string;
  /** The `Retry-After` of that error response, in seconds (the real service sends one on a 429 or 503). */
  retryAfter?: number;
  /** Close the stream after this many chunks, without `[END]`. */
  cutAfter?: number;
  /** Stop sending after this many chunks and keep the connection open. */
  stallAfter?: number;
  /** Whether a cut or stalled reply is stored all the same (default true: the service finishes on its own). */
  stored?: boolean;
}

/** A scenario file. */
export interface Scenario {
  replies?: ScenarioReply[];
  /** Messages allowed per 30 days before the 402 quota answer. */
  messageLimit?: number;
  /** Defaults applied to every reply, scripted or not. */
  defaults?: ScenarioReply;
}

const NUMBER_KEYS = ['delayMs', 'firstByteDelayMs', 'status', 'retryAfter', 'cutAfter', 'stallAfter'] as const;

function checkReply(reply: ScenarioReply, where: string) {
  if (!reply || typeof reply !== 'object') throw new Error(`${where}: expected an object`);
  for (const key of NUMBER_KEYS) {
    const v = reply[key];
    if (v !== undefined && !(typeof v === 'number' && v >= 0))
      throw new Error(`${where}.${key}: expected a number ≥ 0`);
  }
  const sizes = reply.chunkSize === undefined ? [] : [reply.chunkSize].flat();
  if (sizes.some((n) => !(Number.isInteger(n) && n > 0)))
    throw new Error(`${where}.chunkSize: expected whole numbers > 0`);
  if (reply.text !== undefined && typeof reply.text !== 'string') throw new Error(`${where}.text: expected a string`);
  if (reply.match !== undefined && typeof reply.match !== 'string')
    throw new Error(`${where}.match: expected a string`);
}

/** Checks a parsed scenario file; throws an Error naming the first bad field. */
export function parseScenario(value: unknown): Scenario {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('scenario: expected a JSON object');
  const scenario = value as Scenario;
  if (scenario.replies !== undefined && !Array.isArray(scenario.replies))
    throw new Error('scenario.replies: expected an array');
  if (scenario.messageLimit !== undefined && !(Number.isInteger(scenario.messageLimit) && scenario.messageLimit >= 0)) {
    throw new Error('scenario.messageLimit: expected a whole number');
  }
  scenario.replies?.forEach((reply, i) => checkReply(reply, `scenario.replies[${i}]`));
  if (scenario.defaults) checkReply(scenario.defaults, 'scenario.defaults');
  return scenario;
}

/** Reads and checks a scenario file. */
export function loadScenario(path: string): Scenario {
  return parseScenario(JSON.parse(readFileSync(path, 'utf8')));
}

const WORD = /[\p{L}\p{N}]/u;

/**
 * Whether `text` contains `phrase` as whole words, ignoring case: where the phrase starts or ends with a letter or
 * digit, the text must not continue it with another ("stall" is in "a stall." but not in "installing").
 */
export function containsWords(text: string, phrase: string): boolean {
  const haystack = text.toLowerCase();
  const needle = phrase.toLowerCase();
  const open = WORD.test(needle.charAt(0));
  const close = WORD.test(needle.charAt(needle.length - 1));
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const joinedBefore = open && WORD.test(haystack.charAt(at - 1));
    const joinedAfter = close && WORD.test(haystack.charAt(at + needle.length));
    if (!joinedBefore && !joinedAfter) return true;
  }
  return false;
}

/** Picks the scripted reply for each message, consuming unmatched entries in order. */
export function createScenarioPlayer(scenario: Scenario) {
  const queue = (scenario.replies ?? []).filter((r) => r.match === undefined);
  const matchers = (scenario.replies ?? []).filter((r) => r.match !== undefined);
  return {
    next(content: string): ScenarioReply {
      const index = matchers.findIndex((r) => containsWords(content, r.match ?? ''));
      const matched = matchers[index];
      if (matched?.once) matchers.splice(index, 1);
      return { ...scenario.defaults, ...(matched ?? queue.shift()) };
    },
  };
}
