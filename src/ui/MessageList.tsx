import { useSignal, useSignalEffect } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ChatMessage } from '../state/messages.js';
import { Markdown } from './Markdown.js';
import { Message } from './Message.js';
import { Starters } from './Starters.js';
import { useWidget } from './context.js';
import { DownIcon } from './icons.js';

/** Room left above a long reply's start when the log stops following it. */
const READING_MARGIN = 12;
/** Within this many pixels of the bottom, the reader counts as "at the latest message". */
const STICK_DISTANCE = 48;
/** A restored history first renders this many of its latest messages (more than a screen), then the rest. */
const FIRST_SCREEN = 12;
/** Older messages are rendered this many per task, each batch well under a long task. */
const BATCH = 20;

/**
 * What the log keeps in view as its content grows: the bottom (the reader is at the latest message), the start of
 * the last reply (a reply taller than the log, from the moment its start reached the top until the reader scrolls by
 * themselves), or nothing (the reader has scrolled elsewhere).
 */
type Follow = 'bottom' | 'start' | 'none';

/** Where `reply` starts in the log's scroll coordinates, less the room left above it. */
function startOf(log: Element, reply: Element): number {
  return reply.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop - READING_MARGIN;
}

/**
 * The latest message if it is a reply (not the welcome). It is found walking back from the end: this runs on every
 * frame of a stream, whatever the length of the history.
 */
function latestReply(content: Element): Element | undefined {
  let latest = content.lastElementChild;
  while (latest && !latest.classList.contains('msg')) latest = latest.previousElementSibling;
  return latest?.matches('.msg--bot:not(.msg--welcome)') ? latest : undefined;
}

/**
 * Scrolls the log to what it follows (never `none`), and returns what it follows from now on. A reply taller than
 * the log would push its own start out of view: the latest reply (streaming, or complete with its sources) is
 * followed until its start reaches the top, then kept there for the visitor to read down, with "jump to latest".
 */
function keepInView(log: HTMLElement, content: Element, follow: Follow): Follow {
  const reply = latestReply(content);
  if (!reply || (follow === 'bottom' && log.scrollHeight - log.clientHeight <= startOf(log, reply))) {
    log.scrollTop = log.scrollHeight;
    return 'bottom';
  }
  log.scrollTop = startOf(log, reply);
  return 'start';
}

/**
 * The log's scrolling: it follows a streaming reply only while the reader is at the bottom, and only until the
 * reply's start reaches the top; `behind` says when the log is not at its end, for the "jump to latest" button.
 * Following is done when the content has been laid out (a ResizeObserver), in the next frame rather than during the
 * observer's delivery: scrolling or re-rendering there would resize what it observes and throw "ResizeObserver loop
 * completed" into the page (WebKit does). `justSent`: the visitor just sent a message, which always brings the log
 * back to the bottom.
 */
function useFollowLatest(justSent: boolean) {
  const log = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const follow = useRef<Follow>('bottom');
  /**
   * Where the log last scrolled itself. At its end, only the reader scrolling up from there leaves it: the event of
   * the log's own scroll, which comes a frame later when the content may have grown again (WebKit), and scroll
   * anchoring moving it down as older messages of a restored history render above (Firefox), find the log above its
   * end but are not the reader's.
   */
  const scrolledTo = useRef(-1);
  const [behind, setBehind] = useState(false);
  if (justSent) follow.current = 'bottom';

  useLayoutEffect(() => {
    const el = log.current;
    const inner = content.current;
    if (!el || !inner) return;
    let frame = 0;
    const keep = () => {
      if (follow.current !== 'none') {
        follow.current = keepInView(el, inner, follow.current);
        scrolledTo.current = el.scrollTop;
      }
      if (follow.current !== 'bottom') setBehind(true);
    };
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(keep);
    });
    observer.observe(inner);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);

  const onScroll = () => {
    const el = log.current;
    // Kept at a reply's start, the log also scrolls when its content is laid out anew (a finished reply replacing the
    // streamed one): only the reader's own scrolling (below) releases it.
    if (!el || follow.current === 'start') return;
    if (follow.current === 'bottom' && el.scrollTop >= scrolledTo.current) return;
    follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE ? 'bottom' : 'none';
    setBehind(follow.current === 'none');
  };
  const release = () => {
    if (follow.current === 'start') follow.current = 'none';
  };
  const jump = () => {
    const el = log.current;
    if (!el) return;
    follow.current = 'bottom';
    setBehind(false);
    el.scrollTop = el.scrollHeight;
    // The button goes away: focus goes to the log it brought to its end rather than to the page.
    el.focus();
  };
  return { log, content, behind, onScroll, release, jump };
}

/**
 * How many of the oldest messages are not rendered yet: a long history shows its latest screen first, then the
 * older messages above it, a batch per task.
 */
function useHistoryBatches(count: number): number {
  const [shown, setShown] = useState(FIRST_SCREEN);
  const hidden = Math.max(0, count - shown);
  useEffect(() => {
    if (hidden === 0) return;
    const timer = setTimeout(() => setShown((rendered) => rendered + BATCH));
    return () => clearTimeout(timer);
  }, [hidden]);
  return hidden;
}

/** A message's vnode: a finished message renders once, its vnode reused until it changes or stops being the last. */
function useMessageItems() {
  const items = useRef(new WeakMap<ChatMessage, { last: boolean; vnode: VNode }>());
  return (message: ChatMessage, isLast: boolean) => {
    let entry = items.current.get(message);
    if (entry?.last !== isLast) {
      entry = { last: isLast, vnode: <Message key={message.id} message={message} isLast={isLast} /> };
      items.current.set(message, entry);
    }
    return entry.vnode;
  };
}

/**
 * The conversation log: the welcome and starters before the first message, the messages, the reply in flight and
 * what the visitor waits for. A reader who has scrolled up is left in peace and offered a "jump to latest" button
 * instead (see useFollowLatest).
 */
export function MessageList() {
  const { model, config } = useWidget();
  const { text } = config;
  const messages = model.messages.value;
  const status = model.status.value.type;
  const stalled = model.stalled.value;
  // Not the text itself: a stream's chunks do not re-render the whole log.
  const waiting = model.silent.value;
  const last = messages.at(-1);
  const { log, content, behind, onScroll, release, jump } = useFollowLatest(
    last?.role === 'user' && last.status === 'pending',
  );
  const hidden = useHistoryBatches(messages.length);
  const item = useMessageItems();

  return (
    <div class="log-wrap">
      <div
        class="log"
        ref={log}
        onScroll={onScroll}
        onWheel={release}
        onTouchStart={release}
        onPointerDown={release}
        onKeyDown={release}
        role="log"
        aria-live="off"
        aria-label={text.conversationLabel}
        tabIndex={0}
      >
        <div class="log__in" ref={content}>
          {messages.length === 0 && status !== 'loading' && (
            <>
              <article class="msg msg--bot msg--welcome">
                <Markdown text={config.welcome} />
              </article>
              <Starters />
            </>
          )}
          {messages.slice(hidden).map((message, index) => item(message, hidden + index === messages.length - 1))}
          {status === 'streaming' && <StreamingReply />}
          {status === 'streaming' && stalled && (
            <p class="msg__note stall" role="status">
              {text.stillWorking}
            </p>
          )}
          {(status === 'sending' || status === 'loading' || (status === 'streaming' && waiting)) && (
            <div class="typing" role="status">
              <span class="dot" />
              <span class="dot" />
              <span class="dot" />
              <span class="sr-only">{text.thinking}</span>
            </div>
          )}
        </div>
      </div>
      {behind && (
        <button class="jump" onClick={jump} aria-label={text.jumpToLatest}>
          <DownIcon />
        </button>
      )}
    </div>
  );
}

/**
 * The reply in flight, re-rendered at most once per animation frame however fast its chunks arrive: the text shown
 * is copied from the model by a `useSignalEffect`, which @preact/signals runs once per frame for any number of
 * changes, so a burst of chunks costs one render and one DOM update.
 */
function StreamingReply() {
  const { model } = useWidget();
  const shown = useSignal(model.streaming.peek());
  useSignalEffect(() => {
    shown.value = model.streaming.value;
  });
  const streaming = shown.value;
  return streaming ? (
    <article class="msg msg--bot msg--streaming" aria-busy="true">
      <Markdown text={streaming} streaming />
    </article>
  ) : null;
}
