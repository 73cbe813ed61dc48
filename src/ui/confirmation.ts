import { useEffect, useState } from 'preact/hooks';

/**
 * How long a visible confirmation ("Copied", "Thanks for your feedback.") stays: 4 s, time to notice it where the
 * visitor acted and read its two to four words at a slow pace (toast guidance is 4–5 s), short enough not to be
 * mistaken for a standing message.
 */
export const CONFIRMATION_MS = 4000;

/**
 * A confirmation shown for `CONFIRMATION_MS` from each `show()` (shown again, it stays the full time again). Only
 * the sight of it: the words go to screen readers once, through the panel's one live region (`model.say`), so the
 * element drawing it is `aria-hidden` rather than a second live region that would read them twice.
 */
export function useConfirmation(): { shown: boolean; show: () => void } {
  const [times, setTimes] = useState(0);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (times === 0) return;
    setShown(true);
    const timer = setTimeout(() => setShown(false), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [times]);
  return { shown, show: () => setTimes((count) => count + 1) };
}
