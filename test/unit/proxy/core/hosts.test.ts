import { describe, expect, it } from 'vitest';
import { DEMO_BOT_ID } from '../../../../demo/simulator/index';
import { createProxy } from '../../../../src/proxy/core/proxy';
import {
  allowedStreamUrl,
  isPrivateHost,
  serializedOriginHost,
  isServedHost,
  type StreamHosts,
} from '../../../../src/proxy/core/hosts';
import { SECRET } from '../../../helpers/proxy';

/**
 * The host rules one step at a time: each table row is a neighbour of the rule's edge (a range's last address and
 * the first one past it, a name with one more label), so a rule loosened or tightened by one step fails a row.
 */

/** A proxy created with these allowed hosts (a thunk, for toThrow). */
const withHosts = (allowedHosts: string[]) => () =>
  createProxy({ apiKey: 'k', botIds: [DEMO_BOT_ID], secret: SECRET, allowedHosts });

describe('private and loopback hosts', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['126.255.255.255', false],
    ['128.0.0.1', false],
    ['10.0.0.1', true],
    ['11.0.0.1', false],
    ['9.255.255.255', false],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.15.255.255', false],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['192.169.0.1', false],
    ['192.167.255.255', false],
    ['169.254.169.254', true],
    ['169.253.0.1', false],
    ['169.255.0.1', false],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.63.255.255', false],
    ['100.128.0.1', false],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['223.255.255.255', false],
    ['8.8.8.8', false],
    // Each private range needs its first byte, not only its second.
    ['8.64.0.1', false],
    ['8.254.0.1', false],
    ['8.16.0.1', false],
    ['8.168.0.1', false],
    ['localhost', true],
    ['LOCALHOST.', true],
    ['api.localhost', true],
    ['localhost.example', false],
    ['mylocalhost', false],
    ['[::1]', true],
    ['[::]', true],
    ['[::ffff:a00:1]', true],
    ['[::ffff:808:808]', false],
    ['[fc00::1]', true],
    ['[fdff::1]', true],
    ['[fe00::1]', false],
    ['[fe80::1]', true],
    ['[febf::1]', true],
    ['[fec0::1]', false],
    ['[2001:db8::1]', false],
    ['example.com', false],
    // Names whose tail reads as a private IPv6 group: only a bracketed literal is read as IPv6.
    ['afc00.example', false],
    ['xfe80.example', false],
  ])('%s is private: %s', (host, expected) => {
    expect(isPrivateHost(host)).toBe(expected);
  });

  it('sees through every spelling URL parsing accepts for an address', () => {
    for (const spelling of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://[::ffff:127.0.0.1]/'])
      expect(isPrivateHost(new URL(spelling).hostname), spelling).toBe(true);
  });
});

describe('served hosts', () => {
  it.each([
    ['localhost', true],
    ['localhost:8787', true],
    ['127.0.0.1:3000', true],
    ['127.1.2.3', true],
    ['[::1]:8080', true],
    ['localhost.:8787', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.evil.example', false],
    ['evil.example', false],
  ])('without a list, %s is served: %s', (host, expected) => {
    expect(isServedHost(host, new Set())).toBe(expected);
  });

  it.each([
    ['shop.example', true],
    ['SHOP.example', true],
    ['shop.example:8443', true],
    ['shop.example:8444', false],
    ['www.shop.example', false],
    ['shop.example.evil', false],
    ['evilshop.example', false],
    ['shop.example.', false],
    ['shop.example.:8443', false],
    ['localhost', false],
    ['127.0.0.1', false],
  ])('with a list, %s is served: %s', (host, expected) => {
    expect(isServedHost(host, new Set(['shop.example', 'shop.example:8443']))).toBe(expected);
  });

  it("serves publicUrl's host (port included) and the listed hosts, and no other, loopback included", async () => {
    const proxy = createProxy({
      apiKey: 'k',
      botIds: [DEMO_BOT_ID],
      secret: SECRET,
      publicUrl: 'https://shop.example:8443/chat',
      allowedHosts: ['internal:3000'],
    });
    const status = async (host: string) => (await proxy(new Request(`http://${host}/askbox/health`))).status;
    expect(await status('shop.example:8443')).toBe(200);
    expect(await status('internal:3000')).toBe(200);
    for (const host of ['shop.example', 'localhost', '127.0.0.1:3000', 'internal'])
      expect(await status(host), host).toBe(421);
  });

  it('checks allowedHosts when the proxy is created', () => {
    for (const bad of ['shop.example/x', 'https://shop.example', 'shop example', 'Shop.example', 'shop.example:', ''])
      expect(withHosts([bad]), bad).toThrow(/allowedHosts/);
    for (const good of ['shop.example', 'shop.example:8443', '[::1]:8080', '10.0.0.5', 'a-b.example'])
      expect(withHosts([good]), good).not.toThrow();
  });
});

describe('Origin headers as a browser serializes them', () => {
  it.each([
    ['https://shop.example', 'shop.example'],
    ['http://127.0.0.1:8080', '127.0.0.1:8080'],
    ['http://[::1]:8080', '[::1]:8080'],
    ['https://shop.example:8443', 'shop.example:8443'],
    ['https://shop.example:443', null],
    ['http://shop.example:80', null],
    ['HTTPS://SHOP.EXAMPLE', null],
    ['https://Shop.example', null],
    ['https://shop.example/', null],
    ['https://x@shop.example', null],
    ['http://2130706433', null],
    ['null', null],
    ['', null],
  ])('%s is one, of host %s', (origin, expected) => {
    expect(serializedOriginHost(origin)).toBe(expected);
  });
});

const HOSTS: StreamHosts = {
  upstreamOrigin: 'https://api.example',
  streamOrigins: new Set(['https://stream.example']),
  privateUpstream: false,
};

describe('stream URLs', () => {
  it.each([
    ['https://api.example/stream/t', true],
    ['/stream/t', true],
    ['https://stream.example/t', true],
    ['http://stream.example/t', false],
    ['https://stream.example:8443/t', false],
    ['https://stream.example.evil/t', false],
    ['https://evilstream.example/t', false],
    ['https://x.stream.example/t', false],
    ['javascript:alert(1)', false],
    // A blob: URL carries the origin it was made on, the service's here: still no http(s).
    ['blob:https://api.example/0b1d', false],
    ['http://[bad', false],
  ])('%s may be fetched: %s', (url, expected) => {
    expect(Boolean(allowedStreamUrl(url, 'https://api.example/api/v1', HOSTS))).toBe(expected);
  });

  it('refuses a listed private host unless the service itself is on a private host', () => {
    const hosts = { ...HOSTS, streamOrigins: new Set(['http://10.0.0.5', 'http://localhost:9000']) };
    for (const url of ['http://10.0.0.5/t', 'http://localhost:9000/t']) {
      expect(allowedStreamUrl(url, 'https://api.example', hosts), url).toBeUndefined();
      expect(allowedStreamUrl(url, 'https://api.example', { ...hosts, privateUpstream: true }), url).toBeDefined();
    }
  });
});
