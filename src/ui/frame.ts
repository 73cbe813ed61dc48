import { effect, type ReadonlySignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';

/**
 * A signal's value, re-read at most once per animation frame: a burst of changes (a streamed reply arrives in
 * many small chunks per frame) costs one render and one DOM update, not one per change.
 */
export function useFrameValue<T>(source: ReadonlySignal<T>): T {
  const [value, setValue] = useState(source.peek());
  useEffect(() => {
    let frame = 0;
    const stop = effect(() => {
      void source.value;
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        setValue(source.peek());
      });
    });
    return () => {
      stop();
      cancelAnimationFrame(frame);
    };
  }, [source]);
  return value;
}
