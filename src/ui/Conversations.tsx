import { useLayoutEffect, useRef } from 'preact/hooks';
import { useWidget } from './context.js';

/**
 * The visitor's conversations with this bot, shown in the panel in place of the conversation (header menu →
 * "Conversations"): a list of buttons, newest activity first, the one in use marked. Focus moves to the first as the
 * list appears; a click loads that conversation; Back or Escape (which leaves the panel open) returns to the
 * conversation, and the panel puts focus in the message box.
 */
export function Conversations() {
  const { model, chatText, formatTime } = useWidget();
  const view = useRef<HTMLElement>(null);
  const current = model.conversation()?.id;
  const list = model.conversations.all();
  const back = () => model.conversations.show(false);
  useLayoutEffect(() => view.current?.querySelector('button')?.focus(), []);
  return (
    <section
      ref={view}
      class="convos"
      aria-labelledby="askbox-convos"
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
        <p>{chatText.noConversations}</p>
      )}
      <button class="link-button" onClick={back}>
        {chatText.back}
      </button>
    </section>
  );
}
