import { useEffect, useRef } from 'preact/hooks';
import { Announcer } from './Announcer.js';
import { Panel } from './Panel.js';
import { useWidget } from './context.js';
import { ChatIcon, CloseIcon } from './icons.js';

/**
 * The widget root: launcher, panel and live region. Focus moves into the composer when the panel opens and back
 * to the launcher when it closes from inside (Escape, the close button), as in any well-behaved dialog.
 */
export function App() {
  const { model, config, scheme } = useWidget();
  const { text } = config;
  const open = model.isOpen.value;
  const launcher = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const wasOpen = useRef(open);

  useEffect(() => {
    if (open && !wasOpen.current) input.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const closeFromPanel = () => {
    model.close();
    launcher.current?.focus();
  };

  return (
    <div class={`askbox askbox--${config.position} askbox--${scheme.value}`}>
      {open && <Panel inputRef={input} onClose={closeFromPanel} />}
      <button
        ref={launcher}
        type="button"
        class="launcher"
        aria-label={open ? text.launcherClose : text.launcherOpen}
        aria-expanded={open}
        aria-controls="askbox-panel"
        onClick={() => (open ? model.close() : model.open())}
      >
        {open ? <CloseIcon /> : <ChatIcon />}
      </button>
      <Announcer />
    </div>
  );
}
