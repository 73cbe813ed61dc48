import type { WidgetConfig } from '../config/schema.js';
import type { Emit } from '../state/events.js';
import type { KeyValueStore } from '../state/storage.js';
import type { Chat, CreateChat } from './chat.js';
import type { ChatStrings, WidgetDeps } from './deps.js';
import type { WidgetModel } from './widget-model.js';

/** Where a widget's chat comes from: the chat file (and a language's strings), loaded once, then `make`. */
export interface ChatSource {
  /**
   * Starts the load if the model's chat is cold or failed (a ready chat stays ready), and returns the load under way,
   * or the last one: it never rejects, and leaves the model's chat ready or failed. Nothing when `createChat` was
   * at hand at once (the ESM build), which makes the chat ready there and then.
   */
  load(): Promise<void> | undefined;
  /** Creates a chat, with the strings loaded joined to the config: set once the model's chat is ready. */
  make?: () => Chat;
  /** The language's strings once loaded, with the chat file or without it (the frame's failure notice reads them). */
  readonly strings: ChatStrings | undefined;
}

interface ChatSourceDeps {
  config: WidgetConfig;
  /** Where the chat file and a language's strings come from, and the network the chat uses. */
  deps: WidgetDeps;
  /** The widget's model: the chat's phase moves there, and the chat keeps the panel's state there. */
  model: WidgetModel;
  emit: Emit;
  /** Where the chat keeps its conversation. */
  storage: KeyValueStore;
}

/** Creates a widget's chat source. */
export function createChatSource({ config, deps, model, emit, storage }: ChatSourceDeps): ChatSource {
  let loading: Promise<void> | undefined;
  /** The language's strings, once loaded. */
  let language: ChatStrings | undefined;
  const keep = (loaded: ChatStrings | undefined) => {
    language = loaded;
    return loaded;
  };
  const take = (create: CreateChat, strings?: ChatStrings) => {
    // The strings join the config when the chat is created: the widget keeps one config.
    // The visitor is the one signed in when the chat is created: `identify()` and `reset()` make a new chat.
    source.make = () =>
      create({ ...config, ...strings, user: model.user }, emit, { client: deps.client, storage, panel: model });
    model.go('ready');
  };
  const source: ChatSource = {
    get strings() {
      return language;
    },
    load: () => {
      const given = model.go('loading') && deps.chat();
      if (typeof given === 'function' && !deps.strings) take(given);
      else if (given) {
        const strings = deps.strings?.().then(keep);
        // Failed, the chat file waits for the strings (whose load never fails): the notice says so in their words.
        loading = Promise.all([given, strings]).then(
          (got) => take(...got),
          async () => {
            await strings;
            model.go('failed');
          },
        );
      }
      return loading;
    },
  };
  return source;
}
