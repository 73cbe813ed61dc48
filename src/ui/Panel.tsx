import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Conversations } from './Conversations.js';
import { ClearedNotice } from './ClearedNotice.js';
import { DeleteConfirm } from './DeleteConfirm.js';
import { PanelMenu } from './PanelMenu.js';
import { Composer } from './Composer.js';
import { ConsentGate } from './ConsentGate.js';
import { ErrorNotice } from './ErrorNotice.js';
import { MessageList } from './MessageList.js';
import { useWidget } from './context.js';
import { CloseIcon, NewIcon } from './icons.js';
import { PARTS } from '../styles/parts.js';

/**
 * The chat panel: header, conversation log, error notice, consent gate and composer. Over the page it is a dialog that its close
 * button closes, and Escape (see mount/chat.ts); inline (no `onClose`) it is a region of the page. The header is a plain element, not
 * `<header>`: inside a dialog it would still count as a second `banner` landmark on many pages.
 */
export function Panel({
  inputRef,
  gateRef,
  onClose,
}: {
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** The consent gate's first button (see ConsentGate). */
  gateRef: RefObject<HTMLButtonElement | null>;
  onClose?: () => void;
}) {
  const { model, config } = useWidget();
  const { text } = config;
  const browsing = model.conversations.shown.value;
  const focusInput = () => inputRef.current?.focus();
  const browsed = useRef(browsing);
  // Back from the list (or a conversation picked in it), the message box has focus again; Delete's question takes it.
  useLayoutEffect(() => {
    if (browsed.current && !browsing && model.removal.state.value === 'idle') focusInput();
    browsed.current = browsing;
  }, [browsing]);
  const startOver = () => {
    // A delete still waiting for its confirmation was about the conversation now put away.
    model.removal.cancel();
    model.newConversation();
    focusInput();
  };
  return (
    <section
      id="askbox-panel"
      class="panel"
      part={PARTS.panel}
      role={onClose ? 'dialog' : 'region'}
      aria-modal={onClose ? 'false' : undefined}
      aria-labelledby="askbox-title"
    >
      <div class="head" part={PARTS.header}>
        <h2 id="askbox-title" class="title" part={PARTS.title}>
          {config.title}
        </h2>
        <button
          class="icon-button"
          part={PARTS.newConversation}
          aria-label={text.newConversation}
          title={text.newConversation}
          onClick={startOver}
        >
          <NewIcon />
        </button>
        <PanelMenu />
        {onClose && (
          <button class="icon-button" part={PARTS.close} aria-label={text.close} title={text.close} onClick={onClose}>
            <CloseIcon />
          </button>
        )}
      </div>
      {browsing ? (
        <Conversations />
      ) : (
        <>
          <MessageList />
          <ClearedNotice inputRef={inputRef} />
          <DeleteConfirm />
          <ErrorNotice />
          <ConsentGate inputRef={inputRef} gateRef={gateRef} />
          <Composer inputRef={inputRef} />
        </>
      )}
    </section>
  );
}
