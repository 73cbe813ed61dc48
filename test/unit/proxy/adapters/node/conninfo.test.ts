import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { connInfo } from '../../../../../src/proxy/adapters/node/conninfo';

/** A request that came on a socket from `remoteAddress`. */
const on = (remoteAddress: string | undefined) => ({ socket: { remoteAddress } }) as IncomingMessage;

describe('connInfo on node:http', () => {
  it("hands the core the socket's address, and nothing when the socket has gone", () => {
    expect(connInfo(on('192.0.2.7'))).toEqual({ clientIp: '192.0.2.7' });
    expect(connInfo(on(undefined))).toEqual({ clientIp: undefined });
  });
});
