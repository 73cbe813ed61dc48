import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../src/proxy/core/proxy';
import { toNodeListener } from '../../src/proxy/adapters/node/node';
import { defineProofContract } from './proof-contract';
import { defineProxyContract, type ProxyRuntime } from './proxy-contract';

/** The contract against the Node adapter on node:http, as a site would run it. */
const node: ProxyRuntime = {
  name: 'node',
  async start(config) {
    const server = createServer(toNodeListener(createProxy(config)));
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
};
defineProxyContract(node);
defineProofContract(node);
