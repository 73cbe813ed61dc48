import { FIELDS, RATINGS } from '../../../protocol/contract.js';
import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { ID, type FeedbackEvent } from '../options.js';
import { busy, json, readJson } from '../respond.js';
import { createValidator } from '../validate.js';

/**
 * `POST feedback`: a rating of a reply in a conversation the visitor holds, judged as the service judges a body,
 * handed to `onFeedback` (default: one `feedback` log line). The service has no such endpoint, so nothing goes
 * upstream. It spends the visitor's and the IP's `action` buckets, so it cannot flood the site's `onFeedback`.
 */
export async function rateReply(deps: ProxyDeps, call: Call): Promise<Response> {
  const { policy, hooks, log, redact } = deps;
  const body = await readJson(call.request);
  if (body instanceof Response) return body;
  const v = createValidator(body);
  const grant = await v.exists('conversation_id', (id) => policy.grantFor(call, id));
  const messageId = await v.exists('message_id', async (id) => (typeof id === 'string' && ID.test(id) ? id : null));
  const rating = v.oneOf('rating', RATINGS);
  const comment = v.optionalText('comment', FIELDS.feedbackCommentMax)?.trim();
  const refused = v.failed();
  if (refused) return refused;
  const refusal = await policy.limit('action', call.ip, policy.countedAs(call, grant!));
  if (refusal) return refusal;
  const event: FeedbackEvent = {
    conversationId: grant!.conversationId,
    messageId: messageId!,
    rating: rating!,
    ...(comment && { comment }),
    visitorId: grant!.visitorId,
  };
  if (!hooks.onFeedback) log({ level: 'info', event: 'feedback', message: JSON.stringify(event) });
  else {
    try {
      await hooks.onFeedback(event);
    } catch (error) {
      log({ level: 'error', event: 'feedback', message: redact(`onFeedback failed: ${String(error)}`) });
      return busy();
    }
  }
  return json({ data: { conversation_id: event.conversationId, message_id: event.messageId, rating: event.rating } });
}
