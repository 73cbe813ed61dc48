import type { RefObject } from 'preact';
import { useLayoutEffect, useMemo } from 'preact/hooks';
import { COUNTER_THRESHOLD, MAX_MESSAGE_LENGTH, messageLength } from '../config/schema.js';
import { useWidget } from './context.js';
import { thenFocusComposer } from './focus.js';
import { SendIcon, StopIcon } from './icons.js';
import { PARTS } from '../styles/parts.js';

/**
 * The message box. Enter sends, Shift+Enter adds a line, and Enter while an input method is composing (CJK) is
 * left to the IME; before the visitor accepts the consent text, Enter moves to its Accept instead, the text kept (and
 * sent only when the visitor sends it), and after a refusal the box is off. Over-long text is kept, never truncated: the counter, on its own line under the box so the box
 * keeps its width, says in words that the message is too long, and sending waits.
 */
export function Composer({ inputRef }: { inputRef: RefObject<HTMLTextAreaElement | null> }) {
  const { model, config, chatText } = useWidget();
  const { text } = config;
  const draft = model.draft.value;
  const declined = model.consent.state.value === 'declined';
  const busy = model.busy.value;
  const loading = model.status.value.type === 'loading';
  const canSend = model.canSend.value;
  const limited = model.held.value;
  const length = messageLength(draft);
  const over = length > MAX_MESSAGE_LENGTH;
  // Built once per widget, not on every keystroke.
  const count = useMemo(() => new Intl.NumberFormat(config.locale), [config.locale]);

  // Grow with the content up to the stylesheet's max-height, then scroll (CSSOM writes are allowed under a strict
  // CSP; style attributes in markup are not). The height is border-box, so it adds the borders scrollHeight leaves
  // out; without them every line past the first scrolls by 2px.
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [draft]);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!model.consent.allows.peek()) {
      // Nothing goes before the visitor accepts: the gate's Accept takes focus, and the text stays in the box.
      (event.currentTarget as Element).closest('.panel')?.querySelector<HTMLElement>('.consent button')?.focus();
      return model.say(chatText.consentNeeded);
    }
    // The model ignores a send while a reply is on its way, so Enter during a reply does nothing.
    void model.send();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) submit(event);
  };

  return (
    <form class="composer" part={PARTS.composer} onSubmit={submit}>
      <textarea
        ref={inputRef}
        class="input"
        part={PARTS.input}
        rows={1}
        dir="auto"
        value={draft}
        placeholder={config.placeholder}
        aria-label={text.inputLabel}
        aria-invalid={over}
        disabled={declined}
        aria-describedby={length >= COUNTER_THRESHOLD ? 'askbox-counter' : limited ? 'askbox-limit' : undefined}
        onInput={(event) => model.setDraft(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      {length >= COUNTER_THRESHOLD && (
        <p id="askbox-counter" class={`count${over ? ' count--over' : ''}`} aria-live="polite">
          {over && `${text.tooLong} `}
          {count.format(length)} / {count.format(MAX_MESSAGE_LENGTH)}
        </p>
      )}
      {busy && !loading ? (
        <button
          type="button"
          class="icon-button send"
          part={PARTS.stop}
          aria-label={text.stop}
          onClick={thenFocusComposer(model.stop)}
        >
          <StopIcon />
        </button>
      ) : (
        <button
          type="submit"
          class="icon-button send"
          part={PARTS.send}
          aria-label={text.send}
          aria-describedby={limited ? 'askbox-limit' : undefined}
          disabled={!canSend}
        >
          <SendIcon />
        </button>
      )}
    </form>
  );
}
