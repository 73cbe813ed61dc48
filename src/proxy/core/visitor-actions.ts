import { FIELDS, RATINGS } from '../../protocol/contract.js';
import { ID, type FeedbackEvent, type ProxyLogEntry } from './options.js';
import type { createPolicy } from './policy.js';
import { busy, json, readJson, refuse } from './respond.js';
import { createValidator } from './validate.js';

/** What a visitor action needs of the request on its way through the proxy. */
interface ActionCall {
  request: Request;
  ip: string;
}

interface Deps<C extends ActionCall> {
  policy: ReturnType<typeof createPolicy>;
  onFeedback: ((event: FeedbackEvent) => void | Promise<void>) | undefined;
  onDelete: ((event: { conversationId: string; visitorId: string }) => void | Promise<void>) | undefined;
  log: (entry: ProxyLogEntry) => void;
  /** Keeps the key and the secrets out of a log line. */
  redact: (text: string) => string;
  /** Deletes the conversation at the service and relays its answer. */
  remove: (call: C, id: string) => Promise<Response>;
}

/**
 * What a visitor does to a conversation they hold, besides talking in it: delete it at the service, and rate its
 * replies. Both need the conversation's grant and spend the visitor's and the IP's `action` buckets, so neither
 * can flood the service or the site's `onFeedback`.
 */
export function createVisitorActions<C extends ActionCall>(deps: Deps<C>) {
  const { policy, onFeedback, onDelete, log, redact, remove } = deps;
  return {
    /**
     * `DELETE conversations/{id}`: someone else's (or no) grant finds nothing, as a read does. Once the service has
     * deleted it, `onDelete` erases what the site keeps of it.
     */
    async remove(call: C, id: string): Promise<Response> {
      const grant = await policy.grantFor(call.request, id);
      if (!grant) return refuse('conversationNotFound');
      const refusal = await policy.limit('action', call.ip, grant.visitorId);
      if (refusal) return refusal;
      const response = await remove(call, id);
      if (response.ok && onDelete) {
        try {
          await onDelete({ conversationId: grant.conversationId, visitorId: grant.visitorId });
        } catch (error) {
          log({ level: 'error', event: 'delete', message: redact(`onDelete failed: ${String(error)}`) });
        }
      }
      return response;
    },

    /**
     * `POST feedback`: a rating of a reply, judged as the service judges a body, handed to `onFeedback` (default:
     * one `feedback` log line). The service has no such endpoint, so nothing goes upstream.
     */
    async feedback(call: C): Promise<Response> {
      const body = await readJson(call.request);
      if (body instanceof Response) return body;
      const v = createValidator(body);
      const grant = await v.exists('conversation_id', (id) => policy.grantFor(call.request, id));
      const messageId = await v.exists('message_id', async (id) => (typeof id === 'string' && ID.test(id) ? id : null));
      const rating = v.oneOf('rating', RATINGS);
      const comment = v.optionalText('comment', FIELDS.feedbackCommentMax)?.trim();
      const refused = v.failed();
      if (refused) return refused;
      const refusal = await policy.limit('action', call.ip, grant!.visitorId);
      if (refusal) return refusal;
      const event: FeedbackEvent = {
        conversationId: grant!.conversationId,
        messageId: messageId!,
        rating: rating!,
        ...(comment && { comment }),
        visitorId: grant!.visitorId,
      };
      if (!onFeedback) log({ level: 'info', event: 'feedback', message: JSON.stringify(event) });
      else {
        try {
          await onFeedback(event);
        } catch (error) {
          log({ level: 'error', event: 'feedback', message: redact(`onFeedback failed: ${String(error)}`) });
          return busy();
        }
      }
      return json({
        data: { conversation_id: event.conversationId, message_id: event.messageId, rating: event.rating },
      });
    },
  };
}
