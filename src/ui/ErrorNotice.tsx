import { useEffect, useState } from 'preact/hooks';
import { isConversationLimit } from '../api/errors.js';
import type { WidgetConfig } from '../config/schema.js';
import type { Failure } from '../state/status.js';
import { useWidget } from './context.js';
import { thenFocusComposer } from './focus.js';

/**
 * The sentence for a failure: the service's own words where they are meant for the visitor (422), else ours (one
 * calm sentence for the owner's mistakes); after a 429, how long to wait: `wait` seconds, else the `Retry-After`.
 */
function errorText(failure: Failure, config: Pick<WidgetConfig, 'text' | 'locale'>, wait = failure.error.retryAfter) {
  const { error, setup } = failure;
  const { text, locale } = config;
  if (setup) return text.errors.config;
  if (error.detail && error.status === 422) return error.detail;
  if (error.kind === 'rate_limit' && wait) {
    const sentence = isConversationLimit(error) ? text.conversationLimitWait : text.rateLimitWait;
    return sentence.replace('{wait}', formatWait(wait, locale));
  }
  return error.kind === 'aborted' || error.kind === 'quota' ? '' : text.errors[error.kind];
}

/** The whole seconds left until `until` (epoch ms), re-rendered each second while there is one. */
function useSecondsLeft(until: number | undefined): number | undefined {
  const [, tick] = useState(0);
  useEffect(() => {
    if (!until) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until && Math.max(1, Math.ceil((until - Date.now()) / 1000));
}

/** A wait in the visitor's language, rounded up: seconds under 90 s, minutes under 90 min, else hours. */
function formatWait(seconds: number, locale: string): string {
  const [value, unit] =
    seconds < 90
      ? [seconds, 'second']
      : seconds < 5400
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/**
 * The current failure, announced assertively, with Retry when what failed was loading the history. The message
 * limit (402) is no error of the visitor's: a calm notice for them, in the site's words, that stays as the reason
 * sending waits (the service's own text, meant for the site owner, goes to the console).
 */
export function ErrorNotice() {
  const { model, config } = useWidget();
  const { text } = config;
  const shown = model.failure.value;
  const left = useSecondsLeft(shown?.can === 'wait' ? shown.until : undefined);
  const connected = model.online.value;
  if (!shown)
    return connected ? null : (
      <div class="notice" role="status">
        <p class="notice__text">{text.errors.network}</p>
      </div>
    );
  if (shown.can === 'restart')
    return (
      <div id="askbox-limit" class="notice notice--limit" role="status">
        <p class="notice__text">
          {config.limitMessage ?? text.limitReached}{' '}
          {config.limitLink && (
            <a href={config.limitLink} target="_blank" rel="noopener noreferrer">
              {config.limitLinkText ?? text.limitContact}
            </a>
          )}
        </p>
      </div>
    );
  // A wait counts down on screen; a screen reader hears the sentence once, as it was when the notice appeared, and
  // politely: it is no error of the visitor's, and the draft is safe.
  const sentence = errorText(shown, config);
  return (
    <div id="askbox-limit" class={`notice notice--${shown.error.kind}`} role={left ? 'status' : 'alert'}>
      <p class="notice__text">
        {left ? (
          <>
            <span aria-hidden="true">{errorText(shown, config, left)}</span>
            <span class="sr-only">{sentence}</span>
          </>
        ) : (
          sentence
        )}
      </p>
      <div class="actions">
        {(shown.can === 'reload' || shown.can === 'resend') && (
          <button class="link-button" onClick={thenFocusComposer(model.retry)}>
            {text.retry}
          </button>
        )}
        {!left && (
          <button class="link-button" onClick={thenFocusComposer(model.dismiss)}>
            {text.dismiss}
          </button>
        )}
      </div>
    </div>
  );
}
