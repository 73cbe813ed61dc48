import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import type { PersonConversation } from '../people.js';
import { json, refuse } from '../respond.js';

/**
 * `GET conversations`: a signed-in person's conversations, newest first, each with a fresh grant for the person, so
 * their list, history and deletions work from any browser they sign in on. Only for a verified person (none: 401;
 * identity headers that do not verify are refused at the gate); it spends the person's and the IP's `action`
 * buckets. A conversation of a bot the proxy no longer serves is left out, as a grant for it would be refused.
 */
export async function listConversations({ config, policy }: ProxyDeps, call: Call): Promise<Response> {
  const person = call.person;
  if (person === undefined) return refuse('identityRequired');
  const refusal = await policy.limit('action', call.ip, person);
  if (refusal) return refusal;
  const list = await policy.guard.people(config.people.list(person, config.now()));
  const data = await Promise.all(
    list
      .filter((item) => config.bots.has(item.bot_id))
      .map(async ({ id, name, bot_id, created_at }) => ({
        id,
        name,
        bot_id,
        created_at,
        grant: await policy.mint(id, bot_id, person),
      })),
  );
  return json({ data, meta: {} });
}

/**
 * Adds a conversation just started to the signed-in person's list, kept as long as its grant; nothing for an
 * anonymous visitor. A store that cannot answer fails the request (503, logged as the people store's failure), as a
 * limit store does.
 */
export async function rememberConversation(
  { config, policy }: ProxyDeps,
  call: Call,
  conversation: Omit<PersonConversation, 'created_at'>,
): Promise<void> {
  if (call.person === undefined) return;
  const now = config.now();
  const entry = { ...conversation, created_at: new Date(now).toISOString() };
  const ttlMs = config.grantTtlSeconds * 1000;
  await policy.guard.people(config.people.add({ person: call.person, conversation: entry, ttlMs, now }));
}

/** Takes a deleted conversation out of the signed-in person's list; nothing for an anonymous visitor. */
export async function forgetConversation({ config, policy }: ProxyDeps, call: Call, id: string): Promise<void> {
  if (call.person !== undefined) await policy.guard.people(config.people.remove(call.person, id));
}
