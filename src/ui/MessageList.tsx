import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Markdown } from './Markdown.js';
import { Message } from './Message.js';
import { useWidget } from './context.js';
import { DownIcon } from './icons.js';

/** Within this many pixels of the bottom, the reader counts as "at the latest message". */
const STICK_DISTANCE = 48;

/**
 * The conversation log. It follows a streaming reply only while the reader is at the bottom; a reader who has
 * scrolled up is left in peace and offered a "jump to latest" button instead.
 */
export function MessageList() {
  const { model, config } = useWidget();
  const { text } = config;
  const list = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [behind, setBehind] = useState(false);
  const messages = model.messages.value;
  const streaming = model.streaming.value;
  const status = model.status.value.type;
  const last = messages.at(-1);

  // A message the visitor just sent always brings the log back to the bottom.
  if (last?.role === 'user' && last.status === 'pending') stick.current = true;

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [messages, streaming, status]);

  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE;
    if (stick.current) setBehind(false);
  };

  const jump = () => {
    const el = list.current;
    if (!el) return;
    stick.current = true;
    setBehind(false);
    el.scrollTop = el.scrollHeight;
  };

  return (
    <div class="log-wrap">
      <div
        class="log"
        ref={list}
        onScroll={onScroll}
        role="log"
        aria-live="off"
        aria-label={text.conversationLabel}
        tabIndex={0}
      >
        {messages.length === 0 && status !== 'loading' && (
          <article class="msg msg--bot msg--welcome">
            <Markdown text={config.welcome} />
          </article>
        )}
        {messages.map((message, index) => (
          <Message key={message.id} message={message} isLast={index === messages.length - 1} />
        ))}
        {status === 'streaming' && streaming && (
          <article class="msg msg--bot msg--streaming" aria-busy="true">
            <Markdown text={streaming} streaming />
          </article>
        )}
        {(status === 'sending' || status === 'loading' || (status === 'streaming' && !streaming)) && (
          <div class="typing" role="status">
            <span class="typing__dot" />
            <span class="typing__dot" />
            <span class="typing__dot" />
            <span class="sr-only">{text.thinking}</span>
          </div>
        )}
      </div>
      {behind && (
        <button type="button" class="jump" onClick={jump} aria-label={text.jumpToLatest}>
          <DownIcon />
        </button>
      )}
    </div>
  );
}
