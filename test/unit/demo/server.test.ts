import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_IDENTITY_SECRET, startDemoServer } from '../../../demo/server';
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

describe('demo server: the signed-in page', () => {
  const page = async (query: string, identitySecret?: string) => {
    const demo = await startDemoServer({ port: 0, identitySecret });
    try {
      return await (await fetch(`${demo.url.replace('localhost', '127.0.0.1')}/signed-in.html${query}`)).text();
    } finally {
      await demo.close();
    }
  };
  const hmac = (secret: string, id: string) => createHmac('sha256', secret).update(id, 'utf8').digest('hex');

  it('signs ?user= into the tag with the identity secret, the fixed demo one by default', async () => {
    expect(await page('?user=alice')).toContain(
      `data-user-id="alice" data-user-hash="${hmac(DEMO_IDENTITY_SECRET, 'alice')}"`,
    );
    const secret = 'a site secret of some length';
    expect(await page('?user=bob', secret)).toContain(`data-user-id="bob" data-user-hash="${hmac(secret, 'bob')}"`);
  });

  it('signs no one in without ?user=, and escapes what the query says', async () => {
    const anonymous = await page('');
    expect(anonymous).not.toMatch(/data-user-(id|hash)=/);
    const hostile = await page(`?user=${encodeURIComponent('"><script>alert(1)</script>{{NONCE}}')}`);
    expect(hostile).not.toContain('<script>alert');
    expect(hostile).toContain('data-user-id="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;{{NONCE}}"');
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
