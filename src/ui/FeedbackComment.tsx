import { useLayoutEffect, useRef } from 'preact/hooks';
import { FIELDS } from '../protocol/contract.js';
import type { ChatMessage } from '../state/messages.js';
import { useConfirmation } from './confirmation.js';
import { useWidget } from './context.js';
import { HandoffLink } from './HandoffLink.js';

/** Room kept between the comment box and the log's edge it is scrolled to. */
const EDGE = 8;

/**
 * Focuses `field` with its whole comment box inside the log's visible box. The browser's own scrolling on focus
 * shows the field only partly, or not at all (WebKit, Firefox): only the log is scrolled, by as little as needed.
 */
function reveal(field: HTMLInputElement) {
  field.focus({ preventScroll: true });
  const box = field.form?.getBoundingClientRect();
  const log = field.closest('.log');
  if (!box || !log) return;
  const top = log.getBoundingClientRect().top + log.clientTop;
  const bottom = top + log.clientHeight;
  if (box.bottom > bottom - EDGE) log.scrollTop += Math.min(box.bottom - bottom + EDGE, box.top - top - EDGE);
  else if (box.top < top + EDGE) log.scrollTop -= top + EDGE - box.top;
}

/**
 * The optional comment after a thumbs-down (at most `FIELDS.feedbackCommentMax` characters), with Send and Skip;
 * the thumbs-down is sent once, as it closes (see `createFeedback`). Where the box was, "Thanks for your feedback."
 * then shows for a moment.
 */
export function FeedbackComment({ message }: { message: ChatMessage }) {
  const { model, chatText } = useWidget();
  const thanks = useConfirmation();
  if (model.feedback.commenting.value === message.id) return <CommentForm message={message} onSent={thanks.show} />;
  return thanks.shown ? (
    <p class="comment__thanks" aria-hidden="true">
      {chatText.rated}
    </p>
  ) : null;
}

/** The comment box itself. Focus moves into it as it opens, and back to the thumbs-down button as it closes. */
function CommentForm({ message, onSent }: { message: ChatMessage; onSent: () => void }) {
  const { model, chatText } = useWidget();
  const field = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (field.current) reveal(field.current);
  }, []);
  const id = `askbox-comment-${message.id}`;
  const done = (event: Event, comment?: string) => {
    const article = (event.currentTarget as Element).closest('.msg');
    article?.querySelector<HTMLElement>('.rate--down')?.focus();
    void model.feedback.finish(message.id, comment).then((sent) => {
      if (sent) onSent();
      model.say(sent ? chatText.rated : chatText.feedbackFailed);
    });
  };
  return (
    <form
      class="comment"
      onSubmit={(event) => {
        event.preventDefault();
        const comment = field.current?.value.trim() ?? '';
        done(event, comment || undefined);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        done(event);
      }}
    >
      <label for={id}>{chatText.comment}</label>
      <input id={id} ref={field} class="input" maxLength={FIELDS.feedbackCommentMax} dir="auto" />
      <div class="actions">
        <button type="submit" class="link-button">
          {chatText.sendComment}
        </button>
        <button type="button" class="link-button" onClick={done}>
          {chatText.skip}
        </button>
        <HandoffLink />
      </div>
    </form>
  );
}
