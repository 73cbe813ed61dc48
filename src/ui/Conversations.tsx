import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ListState } from '../state/conversations.js';
import { useWidget } from './context.js';

/**
 * The visitor's conversations with this bot, shown in the panel in place of the conversation (header menu →
 * "Conversations"): a list of buttons, newest activity first, the one in use marked. Focus moves to the first as the
 * list appears; a click loads that conversation; Back or Escape (which leaves the panel open) returns to the
 * conversation, and the panel puts focus in the message box.
 */
export function Conversations() {
  const { model, config, chatText, formatTime } = useWidget();
  const view = useRef<HTMLElement>(null);
  const current = model.conversation()?.id;
  const list = model.conversations.all();
  const state = model.conversations.state.value;
  const back = () => model.conversations.show(false);
  const first = useRef(true);
  // Focus moves to the first entry as the list appears; a signed-in person's list comes from the proxy, and once it
  // is there focus moves from Back to its first entry, unless the visitor has moved it out of the list meanwhile.
  useLayoutEffect(() => {
    const active = (view.current?.getRootNode() as ShadowRoot | undefined)?.activeElement;
    if (first.current || !active || view.current?.contains(active)) view.current?.querySelector('button')?.focus();
    first.current = false;
  }, [state]);
  const notices: Partial<Record<ListState, string>> = { loading: config.text.loading, failed: config.text.errors.http };
  return (
    <section
      ref={view}
      class="convos"
      aria-labelledby="askbox-convos"
      aria-busy={state === 'loading'}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // The panel's own Escape (mount/chat.ts) would close the whole panel.
        event.stopPropagation();
        back();
      }}
    >
      <h3 id="askbox-convos">{chatText.conversations}</h3>
      {list.length > 0 ? (
        <ul aria-labelledby="askbox-convos">
          {list.map((entry) => (
            <li key={entry.id}>
              <button
                class="menu__item"
                aria-current={entry.id === current ? 'true' : undefined}
                onClick={() => model.resume(entry)}
              >
                <span>{entry.title}</span>
                <small>
                  {formatTime(entry.at)}
                  {entry.id === current && ` · ${chatText.current}`}
                </small>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p role="status">{notices[state] ?? chatText.noConversations}</p>
      )}
      {state === 'failed' && (
        <button class="link-button" onClick={model.conversations.reload}>
          {config.text.retry}
        </button>
      )}
      <button class="link-button" onClick={back}>
        {chatText.back}
      </button>
    </section>
  );
}
