import { FIELDS } from '../../../protocol/contract.js';
import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { newVisitorId } from '../grant.js';
import { ID } from '../options.js';
import { field, json, readJson, refuse } from '../respond.js';
import { createValidator } from '../validate.js';
import { rememberConversation } from './conversation-list.js';

/**
 * `POST conversations`: starts a conversation with one of the proxy's bots, past the limits (and the proof of work),
 * and answers with the service's conversation plus the visitor's grant for it; a signed-in person's grant goes by
 * their person key, and the conversation joins their list.
 */
export async function createConversation(deps: ProxyDeps, call: Call): Promise<Response> {
  const { config, policy, proof, service } = deps;
  const body = await readJson(call.request);
  if (body instanceof Response) return body;
  // The service's rules, in its order: both fields are required, and the bot must be one this proxy serves.
  const v = createValidator(body);
  const rawName = v.text('name');
  const botId = await v.exists('bot_id', async (id) => [...config.bots].find((bot) => bot === id) ?? null);
  const refused = v.failed();
  if (refused) return refused;
  // A visitor keeps its id across conversations, so starting afresh does not reset its limits.
  const visitorId = (await policy.visitorOf(call)) ?? newVisitorId();
  const refusal = (await policy.limit('conversation', call.ip, visitorId)) ?? (await proof.check(body.proof));
  if (refusal) return refusal;
  // Cut on code points, never inside a surrogate pair (which the service would store as a broken character).
  const name = Array.from(rawName!.trim()).slice(0, FIELDS.nameMax).join('');
  const documentIds = focus(body.document_ids, config.documentIds);
  const response = await service.call(call, '/conversations', {
    method: 'POST',
    body: { name, bot_id: botId!, ...(documentIds && { document_ids: documentIds }) },
  });
  if (!response.ok) return service.relay(response);
  const data = field(await response.json().catch(() => undefined), 'data');
  const id = field(data, 'id');
  if (typeof id !== 'string' || !ID.test(id)) return refuse('unexpectedAnswer');
  try {
    await rememberConversation(deps, call, { id, bot_id: botId!, name });
  } catch (error) {
    // The person's list could not take it: the conversation goes at the service too, so none is left that no list
    // shows and no grant reaches (the visitor is answered 503, and sends again).
    await service.call(call, `/conversations/${id}`, { method: 'DELETE' }).catch(() => undefined);
    throw error;
  }
  return json({ data, meta: { grant: await policy.mint(id, botId!, visitorId) } });
}

/**
 * The focus documents to forward: the visitor's choice when every id is in the allowlist; otherwise the
 * configured set, or none.
 * SECURITY: a visitor must not focus the bot on documents the site owner did not offer.
 */
function focus(requested: unknown, allowed: readonly string[]): readonly string[] | undefined {
  const chosen =
    Array.isArray(requested) &&
    requested.length > 0 &&
    requested.every((id) => allowed.some((document) => document === id));
  if (chosen) return requested as string[];
  return allowed.length ? allowed : undefined;
}
