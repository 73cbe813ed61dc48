import { ROUTES } from '../../protocol/contract.js';
import type { Call } from './call.js';
import type { ProxyDeps } from './deps.js';
import { ID } from './options.js';
import { notAllowed, refuse } from './respond.js';
import { challenge } from './routes/challenge.js';
import { listConversations } from './routes/conversation-list.js';
import { createConversation } from './routes/conversations.js';
import { deleteConversation } from './routes/delete.js';
import { rateReply } from './routes/feedback.js';
import { health } from './routes/health.js';
import { listMessages } from './routes/history.js';
import { sendForStream, sendMessage } from './routes/messages.js';
import { relayStream } from './routes/stream.js';

/**
 * The route a request's path under the base path names, run if its method is one the route takes; any other path
 * is a 404, and any other method a 405 naming the ones it takes (the wire contract's `ROUTES`).
 */
export function route(deps: ProxyDeps, call: Call): Promise<Response> | Response {
  const [resource, id, extra] = call.url.pathname.slice(deps.config.base.length).split('/').filter(Boolean);
  const method = call.request.method;
  const only = ({ methods }: { methods: readonly string[] }, run: () => Promise<Response> | Response) =>
    // Stryker disable next-line StringLiteral: every route guarded here takes one method (messages, two, is below).
    methods.includes(method) ? run() : notAllowed(methods.join(', '));
  if (extra !== undefined || (id !== undefined && !ID.test(id) && resource !== 'stream')) return refuse('notFound');
  if (resource === 'health' && id === undefined) return only(ROUTES.health, () => health(deps, call));
  if (resource === 'challenge' && id === undefined) return only(ROUTES.challenge, () => challenge(deps, call));
  if (resource === 'conversations' && id === undefined)
    return only(ROUTES.conversations, () =>
      method === 'GET' ? listConversations(deps, call) : createConversation(deps, call),
    );
  if (resource === 'conversations') return only(ROUTES.conversation, () => deleteConversation(deps, call, id!));
  if (resource === 'feedback' && id === undefined) return only(ROUTES.feedback, () => rateReply(deps, call));
  if (resource === 'messages' && id === 'stream') return only(ROUTES.messageStream, () => sendForStream(deps, call));
  if (resource === 'messages' && id === undefined && method === 'GET') return listMessages(deps, call);
  if (resource === 'messages' && id === undefined && method === 'POST') return sendMessage(deps, call);
  if (resource === 'messages' && id === undefined) return notAllowed(ROUTES.messages.methods.join(', '));
  if (resource === 'stream' && id !== undefined)
    return only(ROUTES.stream, () => deps.streamCap(() => relayStream(deps, call, id)));
  return refuse('notFound');
}
