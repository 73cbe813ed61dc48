import { toPlainText } from '../render/markdown.js';
import { useWidget } from './context.js';

/**
 * A polite live region that reads each completed reply once, and the short statuses of the header menu and the
 * ratings. The log itself is not live: announcing every streamed token, or re-reading the history, is what makes
 * other chat widgets unusable with a screen reader.
 */
export function Announcer() {
  const { model, config } = useWidget();
  const reply = model.announcement.value;
  // A short status (copied, rated, deleted) until the next reply replaces it.
  const note = model.note.value;
  return (
    <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">
      {note || (reply ? `${config.text.assistant}: ${toPlainText(reply.text)}` : '')}
    </div>
  );
}
