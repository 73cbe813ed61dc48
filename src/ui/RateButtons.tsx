import type { Rating as Value } from '../state/feedback.js';
import type { ChatMessage } from '../state/messages.js';
import { useWidget } from './context.js';
import { ThumbIcon } from './icons.js';

/** The ratings, in the order their buttons appear. */
const RATINGS: readonly Value[] = ['up', 'down'];

/**
 * Thumbs up and down in a reply's footer row: toggle buttons (`aria-pressed`) the visitor can change. The outcome
 * is announced through the panel's live region; a send that failed says so beside them, with Retry.
 */
export function RateButtons({ message }: { message: ChatMessage }) {
  const { model, config, chatText } = useWidget();
  const { feedback } = model;
  const chosen = feedback.ratings.value[message.id];
  const failed = feedback.sending.value[message.id] === 'failed';
  const rate = async (rating: Value) => {
    const outcome = await feedback.rate(message.id, rating);
    // A thumbs-down waits for its comment, which says how it went (see FeedbackComment).
    if (outcome !== 'held') model.say(outcome === 'sent' ? chatText.rated : chatText.feedbackFailed);
  };
  return (
    <span class="rate">
      {failed && (
        <span class="rate__failed">
          {chatText.feedbackFailed}{' '}
          <button class="link-button" onClick={() => void feedback.retry(message.id)}>
            {config.text.retry}
          </button>
        </span>
      )}
      {RATINGS.map((rating) => {
        const label = rating === 'up' ? chatText.rateUp : chatText.rateDown;
        return (
          <button
            key={rating}
            class={`icon-button copy__btn rate--${rating}`}
            aria-label={label}
            title={label}
            aria-pressed={chosen === rating}
            onClick={() => void rate(rating)}
          >
            <ThumbIcon />
          </button>
        );
      })}
    </span>
  );
}
