import { useLayoutEffect, useRef } from 'preact/hooks';
import { Announcer } from './Announcer.js';
import { Panel } from './Panel.js';
import { useWidget } from './context.js';

/**
 * The panel and the live region, rendered next to the plain-DOM launcher. Focus moves into the composer (or the
 * consent gate, while it waits) when the panel opens and back out (`close`: to the launcher, or where it came from) when it closes from inside (Escape,
 * the close button), as in any well-behaved dialog.
 */
export function App({ close }: { close: () => void }) {
  const { model, config, chatText } = useWidget();
  const open = model.isOpen.value;
  const input = useRef<HTMLTextAreaElement>(null);
  const gate = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);

  // Before the browser paints the open panel: focus never rests on the page's <body> in between. While the consent
  // gate waits for the visitor, its first button takes focus, and the live region says why.
  useLayoutEffect(() => {
    if (open && !wasOpen.current) {
      const gated = !model.consent.allows.peek();
      (gated ? gate : input).current?.focus();
      if (model.consent.state.peek() === 'asking') model.say(chatText.consentNeeded);
    }
    wasOpen.current = open;
  }, [open]);

  return (
    <>
      {open && <Panel inputRef={input} gateRef={gate} onClose={config.mode === 'bubble' ? close : undefined} />}
      <Announcer />
    </>
  );
}
