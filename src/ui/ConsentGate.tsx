import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { Markdown } from './Markdown.js';
import { useWidget } from './context.js';

interface ConsentGateProps {
  /** The message box, which takes focus once the visitor accepts. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** The gate's first button (Accept, or after a refusal "Read it again"): where focus goes as the panel opens. */
  gateRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The consent gate above the composer (`data-consent`), until the visitor accepts: the site's text (Markdown,
 * through the reply sanitiser, its links opening in a new tab) as the gate's accessible description, with Accept and
 * Decline. The visitor may type meanwhile; nothing is sent. Declined, the chat stays off, with a way back to the
 * text. Focus follows each choice: Accept → the message box, Decline → "Read it again", that → Accept; and each is
 * said through the panel's polite live region.
 */
export function ConsentGate({ inputRef, gateRef }: ConsentGateProps) {
  const { model, config, chatText } = useWidget();
  const state = model.consent.state.value;
  const shown = useRef(state);
  useLayoutEffect(() => {
    if (shown.current === state) return;
    shown.current = state;
    if (state === 'accepted') inputRef.current?.focus();
    else gateRef.current?.focus();
  }, [state]);
  if (state === 'accepted' || config.consent === undefined) return null;
  const choose = (choice: 'accept' | 'decline' | 'reconsider', said: string) => () => {
    model.consent[choice]();
    model.say(said);
  };
  if (state === 'declined')
    return (
      <div class="notice notice--info consent" role="group" aria-labelledby="askbox-consent-title">
        <p class="notice__text" id="askbox-consent-title">
          {chatText.consentDeclined}
        </p>
        <div class="actions">
          <button class="link-button" ref={gateRef} onClick={choose('reconsider', chatText.consentNeeded)}>
            {chatText.consentReview}
          </button>
        </div>
      </div>
    );
  return (
    <div
      class="notice notice--info consent"
      role="group"
      aria-labelledby="askbox-consent-title"
      aria-describedby="askbox-consent-text"
    >
      <p class="consent__title" id="askbox-consent-title">
        {chatText.consentTitle}
      </p>
      <div class="consent__text" id="askbox-consent-text">
        <Markdown text={config.consent} />
      </div>
      <div class="actions">
        <button
          class="consent__accept"
          ref={gateRef}
          aria-describedby="askbox-consent-text"
          onClick={choose('accept', chatText.consentAccepted)}
        >
          {chatText.consentAccept}
        </button>
        <button class="link-button" onClick={choose('decline', chatText.consentDeclined)}>
          {chatText.consentDecline}
        </button>
      </div>
    </div>
  );
}
