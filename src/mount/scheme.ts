/**
 * Follows the visitor's system colour scheme while the widget lives, calling `onChange` when it flips. A page
 * without matchMedia (or one that broke it) reads as light.
 */
export function followSystemScheme(onChange: () => void) {
  let media: MediaQueryList | undefined;
  try {
    media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', onChange);
  } catch {
    media = undefined;
  }
  return {
    current: (): 'light' | 'dark' => (media?.matches ? 'dark' : 'light'),
    stop: () => media?.removeEventListener('change', onChange),
  };
}
