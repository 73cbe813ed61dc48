import { FIELDS } from '../../../protocol/contract.js';
import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { allowedStreamUrl } from '../hosts.js';
import { field, json, readJson, refuse } from '../respond.js';
import { createValidator } from '../validate.js';

/** A message the visitor may send: its text, the conversation it holds a grant for, and how to answer a stream. */
interface Message {
  content: string;
  conversation_id: string;
  redirect: boolean;
}

/**
 * A message body whose conversation the visitor holds a grant for, past the limits; else the refusal. Checked as
 * the service checks it (content, then conversation_id, then redirect), before any limit is spent or upstream call
 * made; a conversation without the visitor's grant is "invalid", as one that does not exist.
 */
async function readMessage({ policy }: ProxyDeps, call: Call, forStream: boolean): Promise<Message | Response> {
  const body = await readJson(call.request);
  if (body instanceof Response) return body;
  const v = createValidator(body);
  const content = v.text('content', FIELDS.contentMax);
  const grant = await v.exists('conversation_id', (id) => policy.grantFor(call, id));
  // A synchronous send takes no redirect, so none is checked (nor used).
  const redirect = forStream && v.flag('redirect', true);
  const refused = v.failed();
  if (refused) return refused;
  return (
    (await policy.limit('message', call.ip, policy.countedAs(call, grant!))) ?? {
      content: content!,
      conversation_id: grant!.conversationId,
      redirect,
    }
  );
}

/** `POST messages`, a synchronous send: the service answers with the reply once the bot has thought it through. */
export async function sendMessage(deps: ProxyDeps, call: Call): Promise<Response> {
  const body = await readMessage(deps, call, false);
  if (body instanceof Response) return body;
  const response = await deps.service.call(call, '/messages', {
    method: 'POST',
    body: { content: body.content, conversation_id: body.conversation_id },
    slow: true,
  });
  return deps.service.relay(response);
}

/**
 * `POST messages/stream`: sends the message, and answers with the proxy's own sealed stream route for the reply
 * (a 302 to it, or its absolute URL with `redirect: false`), never the service's stream URL.
 */
export async function sendForStream(deps: ProxyDeps, call: Call): Promise<Response> {
  const { config, sealer, service } = deps;
  const body = await readMessage(deps, call, true);
  if (body instanceof Response) return body;
  const response = await service.call(call, '/messages/stream', {
    method: 'POST',
    body: { content: body.content, conversation_id: body.conversation_id, redirect: false },
  });
  // The service is asked for `{data: {stream_url}}`, but cody-api.md leaves open whether every deployment honours
  // `redirect: false`, so its 302 is read as well.
  let streamUrl: unknown;
  if (response.status >= 300 && response.status < 400) streamUrl = response.headers.get('location');
  else if (response.ok) streamUrl = field(await response.json().catch(() => undefined), 'data', 'stream_url');
  else return service.relay(response);
  const target =
    typeof streamUrl === 'string' ? allowedStreamUrl(streamUrl, config.upstream, config.streamHosts) : undefined;
  if (!target) return refuse('noStream');
  const token = await sealer.seal({ url: target.href, conversationId: body.conversation_id }, config.streamTtlMs);
  // SECURITY: a path, so a forged Host header cannot point the visitor elsewhere; fetch follows it with the grant.
  const path = `${config.base}/stream/${token}`;
  if (body.redirect) return new Response(null, { status: 302, headers: { location: path } });
  // The service's `redirect: false` answer wants an absolute URL: the public origin, else the Host (which the gate
  // has already checked against the served hosts).
  return json({ data: { stream_url: `${config.publicOrigin ?? call.url.origin}${path}` } });
}
