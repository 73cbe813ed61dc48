/**
 * The proxy's Node entry (`askbox/proxy/node`): the `node:http` adapter and the upstream client that lets it relay
 * reply streams natively. The adapter lives in `adapters/node/`; this file only names the public surface.
 */
export { toNodeListener, type NodeListenerOptions } from './adapters/node/node.js';
export { nodeFetch } from './adapters/node/node-fetch.js';
export { nodeAesGcm } from './adapters/node/aes-gcm.js';
