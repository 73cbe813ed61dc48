import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { startDemoServer } from '../../../demo/server';
import { nodeAesGcm } from '../../../src/proxy/adapters/node/aes-gcm';

// The real node:crypto sealing, watched: the demo's proxy should make its stream-token key with it.
vi.mock('../../../src/proxy/adapters/node/aes-gcm', async (original) => {
  const real = await original<typeof import('../../../src/proxy/adapters/node/aes-gcm')>();
  return { nodeAesGcm: vi.fn(real.nodeAesGcm) };
});

const PAGES = new URL('../../../demo/pages/', import.meta.url);

describe('demo server', () => {
  it('listens on the loopback interface unless told otherwise, since it serves the simulator and its key', async () => {
    const demo = await startDemoServer({ port: 0 });
    try {
      expect(demo.address).toBe('127.0.0.1');
      expect((await fetch(`${demo.url.replace('localhost', '127.0.0.1')}/askbox/health`)).status).toBe(200);
    } finally {
      await demo.close();
    }
  });

  it("seals stream tokens on node:crypto, as the README's Node recipes do", async () => {
    vi.mocked(nodeAesGcm).mockClear();
    const demo = await startDemoServer({ port: 0 });
    try {
      // The sealer makes its key from the secret as the proxy starts: with the key factory it was given.
      await expect.poll(() => vi.mocked(nodeAesGcm).mock.calls.length).toBe(1);
    } finally {
      await demo.close();
    }
  });
});

describe('demo pages', () => {
  it.each(readdirSync(PAGES).filter((file) => file.endsWith('.html')))(
    '%s lays itself out for the device width (a phone shows it at its own size, not zoomed out)',
    (file) => {
      expect(readFileSync(new URL(file, PAGES), 'utf8')).toContain(
        '<meta name="viewport" content="width=device-width, initial-scale=1" />',
      );
    },
  );
});
