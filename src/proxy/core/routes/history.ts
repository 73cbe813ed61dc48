import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { query } from '../request-url.js';
import { refuse } from '../respond.js';
import { createValidator } from '../validate.js';

/** `GET messages`: one conversation's messages, only with the visitor's grant for it. */
export async function listMessages({ policy, service }: ProxyDeps, call: Call): Promise<Response> {
  const conversationId = call.url.searchParams.get('conversation_id');
  const v = createValidator({ conversation_id: conversationId });
  v.text('conversation_id');
  const refused = v.failed();
  if (refused) return refused;
  if (!(await policy.grantFor(call, conversationId))) return refuse('conversationNotFound');
  const keys = ['conversation_id', 'includes', 'page', 'per_page'];
  return service.relay(await service.call(call, `/messages${query(call.url, keys)}`));
}
