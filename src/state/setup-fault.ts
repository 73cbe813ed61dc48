import type { ChatError } from '../api/errors.js';

/**
 * The site owner's mistake behind a refused request, worded for the console with its fix (as the self-diagnosis
 * words it); undefined when the failure is not theirs. A 422 naming `bot_id` is the proxy refusing a bot it does
 * not serve. A request that never reached the proxy while the browser is online is no fault of the visitor's
 * connection: the proxy is down, its URL is wrong, or it refuses this site (a CORS refusal looks the same to a page).
 */
export function setupFault(error: ChatError, online: boolean, proxyUrl: string, botId: string): string | undefined {
  if (error.status === 422 && error.fields.includes('bot_id'))
    return `Proxy ${proxyUrl} does not serve bot ${botId}: add it to botIds, or fix data-bot-id.`;
  if (error.kind === 'network' && online)
    return `Proxy ${proxyUrl} is unreachable (${error.message}) while online: is it up, data-proxy-url right, this site in allowedOrigins?`;
  return undefined;
}
