import { pathAllowed } from '../config/paths.js';
import type { WidgetConfig } from '../config/schema.js';
import type { Emit } from '../state/events.js';
import type { Chat } from './chat.js';
import type { ChatSource } from './chat-source.js';
import type { Drawing } from './drawing.js';
import type { WidgetModel } from './widget-model.js';

/** The chat behind the launcher, and the launcher it is drawn with: what the widget's handle acts on. */
export interface LazyChat {
  /**
   * Runs `action` on the chat, at once when the model's chat is ready, else once its load ends (calls made meanwhile
   * run in order). An `opening` call opens the panel's frame meanwhile, loading, then the failure notice with Retry if
   * the load fails (the loader logs why); closed meanwhile, the chat is created but does not open. Off the page,
   * nothing.
   */
  use<T>(action: (chat: Chat) => T, opening?: { focus: boolean; itself?: boolean }): unknown;
  /** Loads and creates the chat ahead of need (the launcher does so on hover and focus). */
  warm(): void;
  /** Opens the panel: `engaged`, the visitor's own open (focus moves in), else the widget's (inline, `data-open`). */
  open(engaged: boolean): void;
  /**
   * Forgets the visitor (`reset()`): closes the panel and destroys the chat, runs `forget` (which forgets what is
   * stored), then, inline and on the page, creates a new chat.
   */
  reset(forget: () => void): void;
  /** Closes the panel, or the frame shown while the chat loads: a load that completes later then opens nothing. */
  close(): void;
  /**
   * Puts the widget on the page in `drawing`, filled with the frame or the chat as the model has them; without one,
   * takes it off, chat and all (the conversation stays stored), and keeps it off until put back.
   */
  place(drawing?: Drawing): void;
}

interface LazyChatDeps {
  config: WidgetConfig;
  model: WidgetModel;
  /** Where the chat comes from. */
  source: ChatSource;
  emit: Emit;
}

/**
 * Creates a widget's chat, loaded from `source` and created on the first call that needs it, so that a visitor who
 * never opens the chat costs the page next to nothing; its phase (cold, loading, ready, failed) is the model's.
 * The widget starts on the page if its rules allow the page's path.
 */
export function createLazyChat({ config, model, source, emit }: LazyChatDeps): LazyChat {
  const inline = config.mode === 'inline';
  let chat: Chat | undefined;
  /** The launcher and its frame, while on the page. */
  let drawing: Drawing | undefined;
  /** Whether the widget may be on the page: its rules allow the page's path, and it is not destroyed. */
  let allowed = pathAllowed(config, location.pathname);
  const show = () => {
    if (chat) drawing?.show(chat);
  };
  /**
   * Runs `action` on the chat, creating it first if need be; a failure to start is one console error. A chat the
   * widget opens itself (inline, `data-open`, the remembered state) is created open, so that it draws open and focus
   * stays where it is; the visitor's own open comes after the first draw, and moves focus in.
   */
  const run = <T>(action: (loaded: Chat) => T, itself = false): T | undefined => {
    try {
      if (!chat && source.make && allowed) {
        chat = source.make();
        drawing?.builtFrame?.hide();
        if (itself || inline) chat.model.open();
        show();
      }
      return chat && action(chat);
    } catch (error) {
      console.error('[askbox] The chat widget could not start:', error);
      return undefined;
    }
  };
  const use: LazyChat['use'] = (action, opening) => {
    if (!allowed) return;
    const loading = source.load();
    if (model.chat === 'ready') return run(action, opening?.itself);
    if (opening || inline) {
      model.setPanel('pending');
      drawing?.frame.loading(opening?.focus);
      drawing?.launcher.setOpen(true);
    }
    return loading?.then(() => {
      if (model.chat === 'failed') return drawing?.builtFrame?.failed(source.strings?.pack);
      // Closed while the chat loaded: it is created, but does not open.
      const asked = !opening || model.panel !== 'closed';
      return run(asked ? action : () => undefined, opening?.itself);
    });
  };
  const warm = () => void use(() => undefined);
  const open = (engaged: boolean) =>
    void use((loaded) => loaded.model.open(), { focus: engaged && !inline, itself: !engaged });
  const close = () => {
    if (chat) return chat.model.close();
    model.setPanel('closed');
    drawing?.builtFrame?.hide();
    drawing?.launcher.setOpen(false);
  };
  /** Takes the chat away (its conversation stays stored); the panel is closed, without a `close` event. */
  const drop = () => {
    chat?.destroy();
    chat = undefined;
    close();
  };
  return {
    use,
    warm,
    open,
    close,
    reset: (forget) => {
      const wasOpen = model.open;
      const root = drawing?.launcher.root.getRootNode() as ShadowRoot | undefined;
      // Focus in the widget would fall to the page's body with the panel: it goes to the launcher instead.
      const focused = Boolean(root?.activeElement);
      // A frame waiting for the chat file goes too: the open it waited for belonged to the visitor now gone.
      drop();
      if (wasOpen && !inline) emit('close', undefined);
      forget();
      if (focused && drawing?.launcher.button.isConnected) drawing.launcher.button.focus();
      if (inline && drawing) warm();
    },
    place: (drawn) => {
      allowed = Boolean(drawn);
      if (!drawn) {
        drop();
        drawing?.undraw();
      }
      drawing = drawn;
      if (!drawn) return;
      if (model.panel === 'pending') drawn.frame.loading();
      // Inline, the panel is on screen from the start, and so the chat behind it.
      if (inline) warm();
      show();
    },
  };
}
