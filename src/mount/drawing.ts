import { localizeFrame } from '../config/chat-text.js';
import { contactHref } from '../config/handoff.js';
import type { WidgetConfig } from '../config/schema.js';
import frameCss from '../styles/frame.css?inline';
import css from '../styles/launcher.css?inline';
import { toThemeCss } from '../styles/theme.js';
import type { Chat } from './chat.js';
import type { WidgetDeps } from './deps.js';
import { scheduleGreeting } from './greeting.js';
import type { WidgetHandle } from './handle.js';
import { createLauncher, type Launcher } from './launcher.js';
import { createPendingFrame, type PendingFrame } from './pending.js';
import { keepPlaced } from './placement.js';
import { followSystemScheme } from './scheme.js';
import { addStyles, createShadowHost } from './shadow-host.js';
import { followScreen } from './viewport.js';
import type { WidgetModel } from './widget-model.js';

/** The widget on a page: its launcher, and the frame that stands in for the panel while the chat loads. */
export interface Drawing {
  launcher: Launcher;
  /** Built on first use, with its stylesheet: most visitors never see it. */
  readonly frame: PendingFrame;
  /** The frame if it was built: what hides it or shows its failure builds none (the chat loaded ahead of need). */
  readonly builtFrame: PendingFrame | undefined;
  /** Shows `chat`'s panel in the launcher's slot, in place of the frame; its stylesheet joins the launcher's once. */
  show(chat: Chat): void;
  /** Repaints the launcher in the model's scheme (after a change of theme). */
  paint(): void;
  /** Takes the drawing off the page, with every listener it added. */
  undraw(): void;
}

/**
 * What the drawing's controls do: the launcher's press `toggle`s the panel and its hover or focus `warm`s the chat;
 * the frame's close button `close`s the frame, and its Retry `open`s the panel again.
 */
interface DrawingHandlers extends Pick<WidgetHandle, 'toggle' | 'open' | 'close'> {
  warm(): void;
}

/** Where and how a widget is drawn: see `drawWidget`. */
export interface DrawingDeps {
  doc: Document;
  /** The element the widget is kept in; none: the inline mode's container, or the page's `<body>`. */
  target: HTMLElement | undefined;
  config: WidgetConfig;
  model: WidgetModel;
  handlers: DrawingHandlers;
  /** Where the greeting's bubble and the language's strings come from. */
  deps: Pick<WidgetDeps, 'greeting' | 'strings'>;
}

/**
 * Draws the launcher, its greeting and its frame in `doc`, in a shadow root kept in `target`, or else in the inline mode's
 * container (waited for) or the page's `<body>`, painted in the model's scheme and following the system's.
 */
export function drawWidget({ doc, target, config, model, handlers, deps }: DrawingDeps): Drawing {
  const launcher = createLauncher(doc, config, { onPress: handlers.toggle, onWarm: handlers.warm });
  /** The frame, built when first asked for (few visitors open the panel before the chat file is there). */
  let frame: PendingFrame | undefined;
  const shadow = createShadowHost(doc, {
    css: css + toThemeCss(config),
    nonce: config.styleNonce,
    content: launcher.root,
  });
  let stopScheme: (() => void) | undefined;
  const paint = () => {
    // Only the `auto` theme reads the system's scheme: it is followed from the first paint in that theme on.
    stopScheme ??=
      model.theme === 'auto'
        ? followSystemScheme((scheme) => {
            model.system = scheme;
            launcher.setScheme(model.scheme());
          })
        : undefined;
    launcher.setScheme(model.scheme());
  };
  const selector = !target && config.mode === 'inline' ? config.target : undefined;
  const stopFollowing = followScreen(launcher.root);
  const stopPlacing = keepPlaced(shadow.host, {
    find: () => target ?? (selector ? doc.querySelector(selector) : doc.body),
    deep: Boolean(selector),
    onMissing: () =>
      console.error(`[askbox] data-target "${selector}" matches no element yet: the chat appears once one is added`),
  });
  /** The stylesheets added after the launcher's, each once per drawing (however many chats `reset()` makes). */
  const added = new Set<string>();
  const addSheet = (sheet: string) => {
    // The frame's box is the panel's too: its sheet goes first, before the panel's, which builds on it.
    for (const next of [frameCss, sheet]) {
      if (added.has(next)) continue;
      added.add(next);
      addStyles(shadow.root, next, config.styleNonce);
    }
  };
  paint();
  const stopGreeting = scheduleGreeting({
    config,
    model,
    launcher,
    open: handlers.open,
    addSheet: (sheet) => addStyles(shadow.root, sheet, config.styleNonce),
    load: deps.greeting,
    strings: deps.strings,
  });
  return {
    paint,
    launcher,
    get frame() {
      addSheet(frameCss);
      frame ??= createPendingFrame(launcher.root, launcher.slot, {
        labels: (pack) => localizeFrame(config, pack),
        // Read only once the chat has failed: the chat file reads the handoff settings itself otherwise.
        contact: () => contactHref(config),
        onClose: () => {
          handlers.close();
          launcher.button.focus();
        },
        onRetry: handlers.open,
      });
      return frame;
    },
    get builtFrame() {
      return frame;
    },
    show: (chat) => chat.show(launcher, addSheet, frame?.opener),
    undraw: () => {
      stopGreeting();
      stopScheme?.();
      stopFollowing();
      stopPlacing();
      shadow.destroy();
    },
  };
}
