import { useSignal, useSignalEffect } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ChatMessage } from '../state/messages.js';
import { Markdown } from './Markdown.js';
import { Message } from './Message.js';
import { Starters } from './Starters.js';
import { useWidget } from './context.js';
import { DownIcon } from './icons.js';
import { PARTS } from '../styles/parts.js';

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

/** A question at most this share of the log's height is kept in view above its long reply. */
const QUESTION_SHARE = 1 / 4;

/** Where `element` starts in the log's scroll coordinates, less the room left above it. */
function startOf(log: Element, element: Element): number {
  return element.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop - READING_MARGIN;
}

/**
 * Where the log holds a long reply: at the question it answers when that fits in a quarter of the log (the visitor
 * reads what was asked, whole, above the answer), else at the reply, with the question wholly above the log's top
 * (rounded up: a fraction of a pixel would leave a sliver of the bubble under the header).
 */
function anchorOf(log: HTMLElement, reply: Element): number {
  const question = reply.previousElementSibling;
  if (!question?.matches('.msg--user')) return startOf(log, reply);
  const box = question.getBoundingClientRect();
  if (box.height <= log.clientHeight * QUESTION_SHARE) return startOf(log, question);
  return Math.max(startOf(log, reply), Math.ceil(box.bottom - log.getBoundingClientRect().top + log.scrollTop));
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
 * followed until its start (or the short question above it, see anchorOf) reaches the top, then kept there for the
 * visitor to read down, with "jump to latest".
 */
function keepInView(log: HTMLElement, content: Element, follow: Follow): Follow {
  const reply = latestReply(content);
  const anchor = reply && anchorOf(log, reply);
  // At the bottom, the reader already below the anchor (they read down to the reply's end, where something opened,
  // such as a rating's comment box) stays at the bottom: taking them back to its start would lose their place.
  const past = anchor !== undefined && log.scrollTop > anchor;
  if (anchor === undefined || (follow === 'bottom' && (past || log.scrollHeight - log.clientHeight <= anchor))) {
    log.scrollTop = log.scrollHeight;
    return 'bottom';
  }
  log.scrollTop = anchor;
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
  // The reader has wheeled, touched, pressed or typed in the log since it last followed the bottom by itself.
  const touched = useRef(false);
  /**
   * Where the log last scrolled itself. At its end, only the reader scrolling up from there leaves it: the event of
   * the log's own scroll, which comes a frame later when the content may have grown again (WebKit), and scroll
   * anchoring moving it down as older messages of a restored history render above (Firefox), find the log above its
   * end but are not the reader's.
   */
  const scrolledTo = useRef(-1);
  /** Where the last scroll event found the log: a scroll up from there is the reader leaving the end. */
  const lastTop = useRef(0);
  const [behind, setBehind] = useState(false);
  if (justSent) {
    follow.current = 'bottom';
    touched.current = false;
  }

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
    // streamed one): only the reader's own scrolling (below) releases it. At the bottom, so does the log's own: a
    // scroll the content's shrinking (or the jump button's going) made is delivered a frame later, when a fast
    // stream has grown the content again, and would read as the reader's scrolling away. So at its end, the log is
    // left only by the reader's input followed by a move up from where the log put itself.
    if (!el) return;
    const up = el.scrollTop < lastTop.current;
    lastTop.current = el.scrollTop;
    if (follow.current === 'start') return;
    if (follow.current === 'bottom') {
      if (!touched.current || el.scrollTop >= scrolledTo.current) return;
      follow.current = 'none';
    } else {
      // Moving up, the reader is still leaving the end while near it: a wheel scrolls in small animated steps, and
      // one read as "back at the end" would let the next frame of a stream pull the log down under the reader.
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE;
      follow.current = atEnd && !up ? 'bottom' : 'none';
    }
    touched.current = follow.current === 'none';
    setBehind(follow.current === 'none');
  };
  const release = () => {
    touched.current = true;
    if (follow.current === 'start') follow.current = 'none';
  };
  const jump = () => {
    const el = log.current;
    if (!el) return;
    follow.current = 'bottom';
    touched.current = false;
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
        part={PARTS.messages}
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
              <article class="msg msg--bot msg--welcome" part={PARTS.botBubble}>
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
    <article class="msg msg--bot msg--streaming" part={PARTS.botBubble} aria-busy="true">
      <Markdown text={streaming} streaming />
    </article>
  ) : null;
}
