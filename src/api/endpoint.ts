/**
 * The URL of a proxy route: `path` (`/conversations`, `/messages?page=2`) after the proxy URL. A proxy URL may carry
 * a query, as WordPress's REST API has with "Plain" permalinks (`/index.php?rest_route=/askbox/v1`): the path then
 * extends the query's last value, and the path's own query continues the query.
 *
 * @example
 * proxyEndpoint('/index.php?rest_route=/askbox/v1', '/messages?page=2'); // '/index.php?rest_route=/askbox/v1/messages&page=2'
 */
export const proxyEndpoint = (proxyUrl: string, path: string): string =>
  proxyUrl.replace(/\/+$/, '') + (proxyUrl.includes('?') ? path.replace('?', '&') : path);
