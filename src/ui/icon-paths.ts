// The SVG path of every icon (24×24 view box), shared by the plain-DOM launcher and the Preact panel. One constant
// each, not an object, so that each half of the script-tag bundle carries only the paths it draws.
export const CHAT_PATH = 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';
export const CLOSE_PATH = 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z';
export const SEND_PATH = 'M3 20.5V14l10-2-10-2V3.5L22 12z';
export const STOP_PATH = 'M7 7h10v10H7z';
export const NEW_PATH = 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z';
export const DOWN_PATH = 'M11 4h2v12l5.5-5.5 1.4 1.4L12 19.8 4.1 11.9l1.4-1.4L11 16z';
export const COPY_PATH =
  'M16 1H4a2 2 0 0 0-2 2v14h2V3h12zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11z';
export const MORE_PATH =
  'M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm0 6a2 2 0 1 0 0 4 2 2 0 0 0 0-4z';
export const THUMB_PATH =
  'M1 21h4V9H1zm22-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.5-1.1L14.2 1 7.6 7.6C7.2 8 7 8.5 7 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7 .2-.8z';
