import { useLayoutEffect, useRef } from 'preact/hooks';
import { Announcer } from './Announcer.js';
import { Panel } from './Panel.js';
import { useWidget } from './context.js';

/**
 * The panel and the live region, rendered next to the plain-DOM launcher. Focus moves into the composer when the
 * panel opens and back out (`close`: to the launcher, or where it came from) when it closes from inside (Escape,
 * the close button), as in any well-behaved dialog.
 */
export function App({ close }: { close: () => void }) {
  const { model, config } = useWidget();
  const open = model.isOpen.value;
  const input = useRef<HTMLTextAreaElement>(null);
  const wasOpen = useRef(open);

  // Before the browser paints the open panel: focus never rests on the page's <body> in between.
  useLayoutEffect(() => {
    if (open && !wasOpen.current) input.current?.focus();
    wasOpen.current = open;
  }, [open]);

  return (
    <>
      {open && <Panel inputRef={input} onClose={config.mode === 'bubble' ? close : undefined} />}
      <Announcer />
    </>
  );
}
