import type { ChatError } from '../api/errors.js';
import type { UiText } from '../config/schema.js';
import { useWidget } from './context.js';
import { useValue } from './hooks.js';

/** The sentence for an error: the service's own words where they are meant for people (402, 422), else ours. */
function errorText(error: ChatError, text: UiText, locale: string): string {
  if (error.detail && (error.kind === 'quota' || error.status === 422)) return error.detail;
  if (error.kind === 'rate_limit' && error.retryAfter !== undefined && error.retryAfter > 0)
    return text.rateLimitWait.replace('{wait}', formatWait(error.retryAfter, locale));
  return error.kind === 'aborted' ? '' : text.errors[error.kind];
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

/** The current failure, announced assertively, with Retry when what failed was loading the history. */
export function ErrorNotice() {
  const { model, config } = useWidget();
  const shown = useValue(model.failure);
  const retryTarget = useValue(model.retryTarget);
  if (!shown) return null;
  return (
    <div class={`notice notice--${shown.error.kind}`} role="alert">
      <p class="notice__text">{errorText(shown.error, config.text, config.locale)}</p>
      <div class="notice__actions">
        {retryTarget === 'history' && (
          <button type="button" class="link-button" onClick={() => void model.retry()}>
            {config.text.retry}
          </button>
        )}
        <button type="button" class="link-button" onClick={() => model.dismiss()}>
          {config.text.dismiss}
        </button>
      </div>
    </div>
  );
}
