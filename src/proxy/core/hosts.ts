/**
 * Which hosts the proxy answers on, and which hosts it fetches streams from. Pure: URL parsing has already turned
 * every spelling of an IPv4 address (`0x7f.1`, `2130706433`) into dotted decimal, and IPv6 into its short form.
 */

/** A hostname (as `URL.hostname` spells it) on this machine: 127.0.0.0/8, `localhost` or `[::1]`. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || ipv4(host)?.[0] === 127;
}

/**
 * A hostname that names this machine or a private network: loopback, `localhost`, and the IP literals of private
 * (10/8, 172.16/12, 192.168/16, 100.64/10), link-local (169.254/16, fe80::/10), unique-local (fc00::/7) and
 * unspecified ranges, IPv4-mapped IPv6 included.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopbackHost(host)) return true;
  const v4 = ipv4(host) ?? mappedIpv4(host);
  if (v4) return isPrivateIpv4(v4);
  if (!host.startsWith('[')) return false;
  // Stryker disable next-line StringLiteral: an empty first group is only `[::…]`, which is private below either way.
  const first = Number.parseInt(host.slice(1).split(':')[0] || '0', 16);
  // `[::]`, `[::1]` and every other address with a leading zero group (the IPv4-compatible and mapped forms).
  if (host.startsWith('[::')) return true;
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

function isPrivateIpv4([a, b]: readonly number[]): boolean {
  // Stryker disable next-line BooleanLiteral: unreachable (ipv4() always yields four bytes); it narrows the types.
  if (a === undefined || b === undefined) return false;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/** The four bytes of a dotted-decimal IPv4 hostname, or undefined. */
function ipv4(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return match ? match.slice(1).map(Number) : undefined;
}

/** The IPv4 address inside an IPv4-mapped IPv6 hostname (`[::ffff:7f00:1]`), or undefined. */
function mappedIpv4(host: string): number[] | undefined {
  // Stryker disable next-line Regex: URL.hostname brackets IPv6 whole: nothing comes before `[` or after `]`.
  const match = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!match) return undefined;
  const [high, low] = [Number.parseInt(match[1]!, 16), Number.parseInt(match[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

/**
 * Whether the proxy answers a request for `host` (`URL.host`, port included). With `allowed` hosts (the public
 * URL's and `allowedHosts`), exactly those; without any, only loopback hosts, on any port.
 * SECURITY: a DNS-rebinding page reaches a proxy on this machine under the attacker's own host name; the Host
 * check is what tells it apart from the site's own page.
 */
export function isServedHost(host: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.size) return allowed.has(host.toLowerCase());
  const hostname = host.replace(/:\d*$/, '');
  return isLoopbackHost(hostname);
}

/**
 * The host (and port) of an Origin header that is an origin as a browser serializes it (`scheme://host[:port]`:
 * lowercase, no default port, no path or userinfo); null for any other (an opaque origin, "null", or what only a
 * hand-made request sends: no page's origin). A check and one parse, where a check and then a read of the host parsed it three times.
 */
export function serializedOriginHost(origin: string): string | null {
  if (!URL.canParse(origin)) return null;
  const url = new URL(origin);
  return url.origin === origin ? url.host : null;
}

/** Where reply streams may be fetched from: the service's origin, the configured stream origins. */
export interface StreamHosts {
  upstreamOrigin: string;
  streamOrigins: ReadonlySet<string>;
  /** Whether the service itself is on a private host (the local simulator): then private stream hosts are fine. */
  privateUpstream: boolean;
}

/**
 * The stream URL `text` (resolved against `base`) when the proxy may fetch it, else undefined: http(s) only, on the
 * service's origin or a configured stream origin, and never a private or loopback host unless the service is on one.
 * SECURITY: the service (or whoever answers as it) must not steer the proxy into the site's own network.
 */
export function allowedStreamUrl(text: string, base: string, hosts: StreamHosts): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.origin !== hosts.upstreamOrigin && !hosts.streamOrigins.has(url.origin)) return undefined;
  if (!hosts.privateUpstream && isPrivateHost(url.hostname)) return undefined;
  return url;
}
