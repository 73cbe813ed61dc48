import type { RefObject } from 'preact';
import { useWidget } from './context.js';

/**
 * "Conversation cleared. Undo", after the visitor started a new conversation, until they send again: one click
 * on "new conversation" never loses a conversation for good. The status role announces it.
 */
export function ClearedNotice({ inputRef }: { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const { model, config } = useWidget();
  const cleared = model.cleared.value;
  const undo = () => {
    model.undoNewConversation();
    // The button goes away with the notice: focus goes back to the message box rather than to the page.
    inputRef.current?.focus();
  };
  return (
    <div class="notice notice--info" role="status">
      {cleared && (
        <>
          <p class="notice__text">{config.text.cleared}</p>
          <button class="link-button" onClick={undo}>
            {config.text.undo}
          </button>
        </>
      )}
    </div>
  );
}
