import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';
import { json } from '../respond.js';

/**
 * `GET health`: up, and an Askbox proxy (for load balancers and the widget's self-diagnosis); with `?bot_id=`,
 * whether that bot is one it serves. The bot id is no secret: every page with the widget carries it.
 */
export function health({ config }: ProxyDeps, call: Call): Response {
  const bot = call.url.searchParams.get('bot_id');
  return json({ status: 'ok', proxy: 'askbox', ...(bot !== null && { bot: config.bots.has(bot) }) });
}
