import { handoffLink, type HandoffLink as Link } from '../state/handoff.js';
import type { TranscriptLabels } from '../state/transcript.js';
import { useWidget, type WidgetContext } from './context.js';

/** How a transcript of this widget is written: its title and words, its visitor's time format. */
export const transcriptLabels = ({ config, formatTime }: WidgetContext): TranscriptLabels => ({
  title: config.title,
  you: config.text.you,
  assistant: config.text.assistant,
  sources: config.text.sources,
  formatTime,
});

/** The site's way to a person for the conversation on screen; undefined when the site gives none. */
export function useHandoffLink(): Link | undefined {
  const context = useWidget();
  const { model, handoff } = context;
  const conversation = { messages: model.messages.value, id: model.conversation()?.id };
  return handoffLink(handoff, conversation, transcriptLabels(context));
}

/**
 * "Talk to a person", as a link under a failed reply and after a thumbs-down: a contact page in a new tab, or an
 * email with the conversation. Nothing when the site gives no way to a person.
 */
export function HandoffLink() {
  const { model, chatText } = useWidget();
  const link = useHandoffLink();
  if (!link) return null;
  return (
    <a
      class="link-button"
      href={link.href}
      target={link.via === 'url' ? '_blank' : undefined}
      rel="noopener"
      onClick={() => model.handoff(link.via)}
    >
      {chatText.talkToPerson}
    </a>
  );
}
