import {
  CLOSE_PATH,
  COPY_PATH,
  DOWN_PATH,
  MORE_PATH,
  NEW_PATH,
  SEND_PATH,
  STOP_PATH,
  THUMB_PATH,
} from './icon-paths.js';

/** Inline SVG icons: no requests, no fonts, and nothing a strict CSP could block. */
const svg = (path: string) => () => (
  <svg class="icon" viewBox="0 0 24 24" aria-hidden="true">
    <path d={path} />
  </svg>
);

export const CloseIcon = svg(CLOSE_PATH);
export const SendIcon = svg(SEND_PATH);
export const StopIcon = svg(STOP_PATH);
export const NewIcon = svg(NEW_PATH);
export const DownIcon = svg(DOWN_PATH);
export const CopyIcon = svg(COPY_PATH);
export const MoreIcon = svg(MORE_PATH);
/** Thumbs up; the stylesheet turns it over for thumbs down (`.rate--down`). */
export const ThumbIcon = svg(THUMB_PATH);
