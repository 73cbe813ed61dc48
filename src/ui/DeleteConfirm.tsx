import { useLayoutEffect, useRef } from 'preact/hooks';
import { useWidget } from './context.js';

/** Focus back on the menu button of the panel `event` happened in. */
const back = (event: Event) =>
  (event.currentTarget as Element).closest('.panel')?.querySelector<HTMLElement>('#askbox-menu-button')?.focus();

/**
 * The in-panel confirmation of "Delete this conversation": focus moves to Cancel (the safe choice) as it appears,
 * Escape cancels (and keeps the panel open), and a refusal says so under the question, everything left in place.
 * Cancelled, focus goes back to the menu button it came from; deleted, to the message box.
 */
export function DeleteConfirm() {
  const { model, chatText } = useWidget();
  const { removal } = model;
  const state = removal.state.value;
  const cancel = useRef<HTMLButtonElement>(null);
  const asking = state !== 'idle';
  useLayoutEffect(() => {
    if (state === 'confirm') cancel.current?.focus();
  }, [asking]);
  if (!asking) return null;
  const onCancel = (event: Event) => {
    back(event);
    removal.cancel();
  };
  const onDelete = async (event: Event) => {
    const panel = (event.currentTarget as Element).closest('.panel');
    if (await removal.confirm()) {
      model.say(chatText.deleted);
      panel?.querySelector('textarea')?.focus();
    }
  };
  return (
    <div
      class="notice notice--info confirm"
      role="group"
      aria-labelledby="askbox-confirm"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onCancel(event);
      }}
    >
      <p class="notice__text" id="askbox-confirm">
        {chatText.deleteConfirm}
      </p>
      {state === 'failed' && (
        <p class="notice__text" role="alert">
          {chatText.deleteFailed}
        </p>
      )}
      <div class="actions">
        <button class="link-button" ref={cancel} onClick={onCancel}>
          {chatText.cancel}
        </button>
        <button class="link-button" disabled={state === 'deleting'} onClick={onDelete}>
          {chatText.deleteAction}
        </button>
      </div>
    </div>
  );
}
