/**
 * The part names the launcher sets, each on its own: the launcher (parsed on every page view) carries only these
 * strings, not the table below, which the chat file's components read. Besides the launcher button, the frame that
 * stands in for the panel while the chat file loads (pending.ts) has the panel's box, header, title and close button,
 * so that a page's restyled panel does not first show unstyled.
 */
export const LAUNCHER_PART = 'launcher';
export const PANEL_PART = 'panel';
export const HEADER_PART = 'header';
export const TITLE_PART = 'title';
export const CLOSE_PART = 'button button-close';

/**
 * The widget's `part` names, a public API: a page styles them from outside the shadow root with
 * `askbox-widget::part(name)`, so a name, once published, keeps its meaning. Each value is the element's whole `part`
 * attribute: a general name, then for bubbles and buttons a specific one (`bubble bubble-user`,
 * `button button-send`), so that a rule can reach all bubbles, or only the visitor's. The README's table lists every
 * name (test/unit/project/readme-parts.test.ts); the widget's tests find each on its element.
 */
export const PARTS = /* @__PURE__ */ Object.freeze({
  launcher: LAUNCHER_PART,
  panel: PANEL_PART,
  header: HEADER_PART,
  title: TITLE_PART,
  messages: 'messages',
  userBubble: 'bubble bubble-user',
  botBubble: 'bubble bubble-bot',
  sources: 'sources',
  composer: 'composer',
  input: 'input',
  send: 'button button-send',
  stop: 'button button-stop',
  newConversation: 'button button-new',
  menu: 'button button-menu',
  close: CLOSE_PART,
});

/**
 * Every part name the widget publishes, each once (`bubble` and `button` stand for their kinds too). A function, not
 * a constant: the launcher imports this module for its own name, and a computed constant would keep the table in it.
 */
export function partNames(): string[] {
  return [...new Set(Object.values(PARTS).flatMap((part) => part.split(' ')))];
}
