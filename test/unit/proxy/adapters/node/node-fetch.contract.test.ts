import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../../../../src/proxy/core/proxy';
import { toNodeListener } from '../../../../../src/proxy/adapters/node/node';
import { nodeFetch } from '../../../../../src/proxy/adapters/node/node-fetch';
import { defineProxyContract } from '../../../../contract/proxy-contract';

/**
 * The whole contract again on Node with `fetch: nodeFetch`, where the adapter relays reply streams natively
 * (socket to socket, with its own deadlines and cancellation) instead of through web streams.
 */
defineProxyContract({
  name: 'node, nodeFetch',
  async start(config) {
    const server = createServer(toNodeListener(createProxy({ ...config, fetch: nodeFetch })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${config.basePath}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
});
