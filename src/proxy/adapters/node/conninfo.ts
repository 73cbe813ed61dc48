import type { IncomingMessage } from 'node:http';
import type { ProxyContext } from '../../core/options.js';

/**
 * What only `node:http` knows of a request: the address of the socket it came on. The core trusts a forwarding
 * header instead only when the site says a proxy in front sets it (the `clientIp` option).
 */
export function connInfo(req: IncomingMessage): ProxyContext {
  return { clientIp: req.socket.remoteAddress };
}
