import { ICON_PATHS } from './icon-paths.js';

/** Inline SVG icons: no requests, no fonts, and nothing a strict CSP could block. */
const svg = (path: string) => () => (
  <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={path} />
  </svg>
);

export const CloseIcon = svg(ICON_PATHS.close);
export const SendIcon = svg(ICON_PATHS.send);
export const StopIcon = svg(ICON_PATHS.stop);
export const NewIcon = svg(ICON_PATHS.new);
export const DownIcon = svg(ICON_PATHS.down);
