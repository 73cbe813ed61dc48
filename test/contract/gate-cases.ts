import { PARTNER } from './config';

/**
 * The tables the gate contract runs on every runtime: spellings of a listed origin, of the proxy's own host in an
 * Origin header, and of a served host in the Host header, each with the answer every runtime must give. A case
 * that a rule loosened by one step (scheme ignored, `endsWith`, case folded, default port dropped) would let
 * through is here so that the loosening fails a test.
 */

/** The host the gate proxy is configured to serve (`allowedHosts`), and the Host its requests carry. */
export const SERVED_HOST = 'shop.example';

/** A case of the table: the header value sent, and whether the proxy lets the request through. */
export interface GateCase {
  value: string;
  allowed: boolean;
  why: string;
}

/** The Origin header against the listed origin `https://partner.example`: exactly that string passes. */
export const LISTED_ORIGIN_CASES: readonly GateCase[] = [
  { value: PARTNER, allowed: true, why: 'the listed origin' },
  { value: 'http://partner.example', allowed: false, why: 'its plain-http twin' },
  { value: 'https://partner.example:444', allowed: false, why: 'another port' },
  // Browsers serialize an origin without its default port; only a hand-made request writes it out.
  { value: 'https://partner.example:443', allowed: false, why: 'the default port written out' },
  // Browsers serialize an origin in lowercase; an origin is compared as the string a browser sends.
  { value: 'HTTPS://PARTNER.EXAMPLE', allowed: false, why: 'upper case' },
  { value: 'https://Partner.example', allowed: false, why: 'mixed case' },
  { value: 'https://partner.example.', allowed: false, why: 'a trailing dot (another origin)' },
  { value: 'https://evilpartner.example', allowed: false, why: 'a name ending with the listed one' },
  { value: 'https://partner.example.evil.test', allowed: false, why: 'a name starting with the listed one' },
  { value: 'https://sub.partner.example', allowed: false, why: 'a subdomain' },
  { value: 'https://partner.exampl', allowed: false, why: 'a prefix of the listed one' },
  { value: 'null', allowed: false, why: 'an opaque origin' },
  // No browser sends an empty Origin, and workerd drops an empty header: every runtime reads it as none.
  { value: '', allowed: true, why: 'an empty Origin, read as none' },
  { value: `${PARTNER}/`, allowed: false, why: 'a trailing slash' },
  { value: 'https://partner.example@evil.test', allowed: false, why: 'userinfo naming the listed origin' },
  { value: `${PARTNER}x`, allowed: false, why: 'the listed origin with a character more' },
];

/**
 * The Origin header against the proxy's own host (a same-host page needs no listing). Only an origin as a browser
 * serializes it counts as same-host; the scheme is not compared, since behind a TLS-terminating proxy the proxy
 * cannot know its own (and a page on the site's http twin can read that twin's proxy answers anyway).
 */
export const SELF_ORIGIN_CASES: readonly GateCase[] = [
  { value: `http://${SERVED_HOST}`, allowed: true, why: 'the page on the same host' },
  { value: `https://${SERVED_HOST}`, allowed: true, why: 'the same host over https' },
  { value: `http://${SERVED_HOST}:8080`, allowed: false, why: 'another port' },
  { value: `http://${SERVED_HOST}.`, allowed: false, why: 'a trailing dot' },
  { value: `http://SHOP.EXAMPLE`, allowed: false, why: 'upper case (no browser sends it)' },
  { value: `http://evil${SERVED_HOST}`, allowed: false, why: 'a name ending with the host' },
  { value: `http://${SERVED_HOST}.evil.test`, allowed: false, why: 'a name starting with the host' },
  { value: `http://sub.${SERVED_HOST}`, allowed: false, why: 'a subdomain' },
  { value: `http://${SERVED_HOST}/`, allowed: false, why: 'a trailing slash (no browser sends it)' },
  { value: `http://evil.test@${SERVED_HOST}`, allowed: false, why: 'userinfo (no browser sends it)' },
];

/**
 * The Host header against `allowedHosts: ['shop.example']`, on a plain-http listener. Host names are
 * case-insensitive (RFC 9110 §4.2.3), and the scheme's default port names the same host, as URL parsing has it.
 */
export const HOST_CASES: readonly GateCase[] = [
  { value: SERVED_HOST, allowed: true, why: 'the served host' },
  { value: 'SHOP.Example', allowed: true, why: 'another case of it' },
  { value: `${SERVED_HOST}:80`, allowed: true, why: 'the http default port written out' },
  { value: `${SERVED_HOST}:443`, allowed: false, why: 'another port (443 on an http listener)' },
  { value: `${SERVED_HOST}:8080`, allowed: false, why: 'another port' },
  { value: `${SERVED_HOST}.`, allowed: false, why: 'a trailing dot' },
  { value: `evil${SERVED_HOST}`, allowed: false, why: 'a name ending with the host' },
  { value: `${SERVED_HOST}.evil.test`, allowed: false, why: 'a name starting with the host' },
  { value: `sub.${SERVED_HOST}`, allowed: false, why: 'a subdomain' },
  { value: 'shop.exampl', allowed: false, why: 'a prefix of the host' },
];
