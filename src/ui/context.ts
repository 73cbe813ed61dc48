import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ChatText } from '../config/chat-text.js';
import type { Handoff } from '../config/handoff.js';
import type { WidgetConfig } from '../config/schema.js';
import type { Addons } from '../render/rich.js';
import type { Sanitize } from '../render/sanitize.js';
import type { ChatModelInstance } from '../state/model.js';

/** What every component of one widget shares; one per mounted widget, so several widgets can share a page. */
export interface WidgetContext {
  model: ChatModelInstance;
  config: WidgetConfig;
  /** The widget's sanitiser: the only way bot HTML reaches the DOM. */
  sanitize: Sanitize;
  /** The highlighter and math add-ons, where the build ships them (the script tag's); without, code and math stay plain. */
  addons?: Addons | undefined;
  /** Puts text on the visitor's clipboard; resolves whether it worked. */
  copy: (text: string) => Promise<boolean>;
  /** A message's time in the visitor's locale. */
  formatTime: (time: number) => string;
  /** The strings of the header menu and what it leads to, in the visitor's language. */
  chatText: ChatText;
  /** The site's way to a person, if it gives one. */
  handoff: Handoff;
  /** Saves `text` as a file named `name` (the visitor's download). */
  download: (name: string, text: string) => void;
}

export const Widget = createContext<WidgetContext | null>(null);

/** The enclosing widget's model and config. */
export function useWidget(): WidgetContext {
  return useContext(Widget)!;
}
