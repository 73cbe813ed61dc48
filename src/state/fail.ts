import type { ReadonlySignal } from '@preact/signals';
import type { ChatError } from '../api/errors.js';
import type { WidgetConfig } from '../config/schema.js';
import { createQuotaReport, type Emit } from './events.js';
import { toFailure, type Repeat, type StatusMachine } from './status.js';

/**
 * The site owner's mistake behind a refused request, worded for the console with its fix (as the self-diagnosis
 * words it); undefined when the failure is not theirs. A 422 naming `bot_id` is the proxy refusing a bot it does
 * not serve. A request that never reached the proxy while the browser is online is no fault of the visitor's
 * connection: the proxy is down, its URL is wrong, or it refuses this site (a CORS refusal looks the same to a page).
 */
export function setupFault(
  error: ChatError,
  online: boolean,
  { proxyUrl, botId }: Pick<WidgetConfig, 'proxyUrl' | 'botId'>,
): string | undefined {
  if (error.status === 422 && error.fields.includes('bot_id'))
    return `Proxy ${proxyUrl} does not serve bot ${botId}: add it to botIds, or fix data-bot-id.`;
  if (error.notProxy) return `Proxy ${proxyUrl} ${error.message}: is data-proxy-url right?`;
  if (error.kind === 'network' && online)
    return `Proxy ${proxyUrl} is unreachable (${error.message}) while online: is it up, data-proxy-url right, this site in allowedOrigins?`;
  return undefined;
}

interface FailDeps {
  config: WidgetConfig;
  online: ReadonlySignal<boolean>;
  /** Moves the model's status (see `STATUS_TRANSITIONS`). */
  go: StatusMachine['go'];
  emit: Emit;
}

/** The model's way of failing: see `createFail`. */
export type Fail = (error: ChatError, repeat?: Repeat, midReply?: boolean) => void;

/**
 * The model's way of failing: `error` moves the status to a failure, offering `repeat` when repeating can help
 * (see `toFailure`). A request the owner's setup refused (`setupFault`) is explained on the console, once per widget;
 * the visitor reads a calm sentence. `midReply`: the service had taken the message, so the proxy was reachable.
 */
export function createFail({ config, online, go, emit }: FailDeps): Fail {
  const logged = new Set<string>();
  const reportQuota = createQuotaReport(emit);
  return (error: ChatError, repeat?: Repeat, midReply = false) => {
    const fault = midReply ? undefined : setupFault(error, online.value, config);
    if (fault && !logged.has(fault)) console.error(`[askbox] ${fault}`);
    if (fault) logged.add(fault);
    go('fail', { ...toFailure(error, repeat), ...(fault && { setup: true }) });
    if (error.kind === 'quota') reportQuota(error.detail ?? '');
    else emit('error', { kind: error.kind, message: error.detail ?? error.message });
  };
}
