/**
 * Follows the visitor's system colour scheme until stopped: `onChange` hears it at once and whenever it flips. A
 * page without matchMedia (or one that broke it) reads as light. Returns the stop function.
 */
export function followSystemScheme(onChange: (scheme: 'light' | 'dark') => void): () => void {
  let media: MediaQueryList | undefined;
  const tell = () => onChange(media?.matches ? 'dark' : 'light');
  try {
    media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', tell);
  } catch {
    media = undefined;
  }
  tell();
  return () => media?.removeEventListener('change', tell);
}
