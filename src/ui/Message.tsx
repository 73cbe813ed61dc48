import type { ChatMessage } from '../state/messages.js';
import { CopyButton } from './CopyButton.js';
import { Markdown } from './Markdown.js';
import { withoutOpeningLine } from '../render/markdown.js';
import { useWidget } from './context.js';
import { thenFocusComposer } from './focus.js';
import { isRateable } from '../state/feedback.js';
import { FeedbackComment } from './FeedbackComment.js';
import { RateButtons } from './RateButtons.js';
import { HandoffLink } from './HandoffLink.js';
import { PARTS } from '../styles/parts.js';

/** One message bubble: the visitor's as plain text, the bot's as sanitised markdown with its sources. */
export function Message({ message, isLast }: { message: ChatMessage; isLast: boolean }) {
  const { model, config, formatTime } = useWidget();
  const { text } = config;
  const user = message.role === 'user';
  const when = new Date(message.time);
  // The failed last reply carries the widget's one Retry (see ChatModel.canRetryReply).
  const canRetry = model.canRetryReply.value && isLast;
  // Pending is only the look of a message held back for the connection (or Retry); one in flight is drawn as sent,
  // and the typing indicator shows the wait. Held by the owner's setup (online), it is not the connection's fault.
  const failure = model.failure.value;
  const waiting = message.status === 'pending' && failure?.can === 'resend';
  const failed = message.status === 'failed';
  const rateable = isRateable(message);
  const time = Number.isFinite(when.getTime()) && (
    <time class="msg__time" dateTime={when.toISOString()}>
      {formatTime(message.time)}
    </time>
  );
  return (
    // Waiting (pending) and failed exclude each other: the modifier is the status's own name.
    <article
      class={`msg msg--${user ? 'user' : 'bot'}${waiting || failed ? ` msg--${message.status}` : ''}`}
      part={user ? PARTS.userBubble : PARTS.botBubble}
    >
      <span class="sr-only">{user ? text.you : text.assistant}: </span>
      {user ? (
        <p class="msg__text" dir="auto">
          {message.text}
        </p>
      ) : (
        // Stopped, it may end on a list marker or a fence the next words never filled.
        <Markdown text={message.status === 'stopped' ? withoutOpeningLine(message.text) : message.text} />
      )}
      {waiting && !failure.setup && <p class="msg__note">{text.waiting}</p>}
      {message.flagged && (
        <p class="msg__note">
          {text.flagged} {isLast && <HandoffLink />}
        </p>
      )}
      {message.status === 'stopped' && <p class="msg__note">{text.stopped}</p>}
      {failed && !user && (!message.text || canRetry) && (
        // One message: the service's own apology (or what arrived) when there is one, else ours; and one Retry.
        <p class="msg__note msg__note--error">
          {!message.text && text.replyFailed}
          {canRetry && (
            <button class="link-button" onClick={thenFocusComposer(model.retry)}>
              {text.retry}
            </button>
          )}
          {isLast && <HandoffLink />}
        </p>
      )}
      {message.sources.length > 0 && (
        <div class="sources" part={PARTS.sources}>
          <span class="sources__label">{text.sources}</span>
          <ol class="sources__list">
            {message.sources.map((source) => (
              <li key={source.id}>
                {source.url ? (
                  <a href={source.url} target="_blank" rel="noopener noreferrer">
                    {source.title}
                  </a>
                ) : (
                  <span>{source.title}</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      )}
      {user || failed ? (
        time
      ) : (
        // The reply's footer row: its time and copy button side by side, whatever the font size.
        <div class="msg__foot">
          {time}
          <CopyButton label={text.copyReply} text={() => message.text} />
          {rateable && <RateButtons message={message} />}
        </div>
      )}
      {rateable && <FeedbackComment message={message} />}
    </article>
  );
}
