import { useEffect, useState } from 'preact/hooks';
import { useWidget } from './context.js';
import { CopyIcon } from './icons.js';

/** How long "Copied" stays up. */
const SHOWN_MS = 2000;

/** Copies what `text()` returns when pressed, then says "Copied" on screen and to screen readers for a moment. */
export function CopyButton({ label, text }: { label: string; text: () => string }) {
  const { copy, config } = useWidget();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <span class="copy">
      <button
        class="icon-button copy__btn"
        aria-label={label}
        title={label}
        onClick={async () => setCopied(await copy(text()))}
      >
        <CopyIcon />
      </button>
      <span class="copy__status" role="status">
        {copied ? config.text.copied : ''}
      </span>
    </span>
  );
}
