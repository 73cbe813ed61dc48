import { closestName } from './closest.js';

/**
 * The keys a parser did not know, in the order given (likely typos worth one warning), and for each that is near a
 * known key, that key (`botid` → `botId`).
 */
export interface UnknownKeys {
  unknown: string[];
  closest: Map<string, string>;
}

/** The `keys` that are not `known`, each with the nearest known key (see `closestName`) when one is near. */
export function findUnknown(keys: readonly string[], known: readonly string[]): UnknownKeys {
  const unknown = keys.filter((key) => !known.includes(key));
  const closest = new Map<string, string>();
  for (const key of unknown) {
    const near = closestName(key, known);
    if (near) closest.set(key, near);
  }
  return { unknown, closest };
}

/**
 * The attribute a config key comes from, as the site owner wrote it: `botId` → `data-bot-id` (on `<askbox-chat>`,
 * whose `prefix` is empty: `bot-id`), `textSned` → `data-text-sned`, `text.sendd` → `data-text` key `sendd`.
 */
export function attributeOf(key: string, prefix = 'data-'): string {
  const [name = key, ...rest] = key.split('.');
  const attribute = prefix + name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return rest.length > 0 ? `${attribute} key "${rest.join('.')}"` : attribute;
}

/**
 * The unknown keys for one console line, each named by `name` and followed by the known one it is likely a typo
 * of: `data-botid (did you mean data-bot-id?), data-colour`.
 */
export function describeUnknown({ unknown, closest }: UnknownKeys, name: (key: string) => string = String): string {
  return unknown
    .map((key) => {
      const near = closest.get(key);
      return near ? `${name(key)} (did you mean ${name(near)}?)` : name(key);
    })
    .join(', ');
}
