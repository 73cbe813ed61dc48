import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { refuse } from '../respond.js';
import { forgetConversation } from './conversation-list.js';

/**
 * `DELETE conversations/{id}`: deletes a conversation the visitor holds at the service; someone else's (or no)
 * grant finds nothing, as a read does. It spends the visitor's and the IP's `action` buckets, so it cannot flood
 * the service. Once the service has deleted it, `onDelete` erases what the site keeps of it, and it leaves a
 * signed-in person's list.
 */
export async function deleteConversation(deps: ProxyDeps, call: Call, id: string): Promise<Response> {
  const { policy, service, hooks, log, redact } = deps;
  const grant = await policy.grantFor(call, id);
  if (!grant) return refuse('conversationNotFound');
  const refusal = await policy.limit('action', call.ip, policy.countedAs(call, grant));
  if (refusal) return refusal;
  const response = await service.relay(await service.call(call, `/conversations/${id}`, { method: 'DELETE' }));
  // Gone at the service, or never there (404): either way it leaves the signed-in person's list.
  if (response.ok || response.status === 404) await forgetConversation(deps, call, id);
  if (response.ok && hooks.onDelete) {
    try {
      await hooks.onDelete({ conversationId: grant.conversationId, visitorId: grant.visitorId });
    } catch (error) {
      log({ level: 'error', event: 'delete', message: redact(`onDelete failed: ${String(error)}`) });
    }
  }
  return response;
}
