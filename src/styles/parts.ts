/**
 * The launcher's part name, on its own: the launcher (parsed on every page view) carries only this string, not the
 * table below, which the chat file's components read.
 */
export const LAUNCHER_PART = 'launcher';

/**
 * The widget's `part` names, a public API: a page styles them from outside the shadow root with
 * `askbox-widget::part(name)`, so a name, once published, keeps its meaning. Each value is the element's whole `part`
 * attribute: a general name, then for bubbles and buttons a specific one (`bubble bubble-user`,
 * `button button-send`), so that a rule can reach all bubbles, or only the visitor's. The README's table lists every
 * name (test/unit/project/readme-parts.test.ts); the widget's tests find each on its element.
 */
export const PARTS = /* @__PURE__ */ Object.freeze({
  launcher: LAUNCHER_PART,
  panel: 'panel',
  header: 'header',
  title: 'title',
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
  close: 'button button-close',
});

/**
 * Every part name the widget publishes, each once (`bubble` and `button` stand for their kinds too). A function, not
 * a constant: the launcher imports this module for its own name, and a computed constant would keep the table in it.
 */
export function partNames(): string[] {
  return [...new Set(Object.values(PARTS).flatMap((part) => part.split(' ')))];
}
