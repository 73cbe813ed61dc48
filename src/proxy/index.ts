/**
 * Askbox's token proxy: keeps the Cody API key on the server and exposes only what the widget needs.
 * Web standards only — runs on Node 20+, Cloudflare Workers, Deno and Bun. For `node:http`, see `./node`.
 */
export { createProxy, type ProxyHandler, type ProxyOptions } from './handler';
