/**
 * Seals an upstream stream URL into an opaque token for the proxy's own stream route, so the browser never sees
 * (or can choose) the upstream URL. AES-GCM authenticates the token: a forged or altered one does not open.
 */
export interface Sealer {
  seal(url: string, ttlMs: number): Promise<string>;
  /** The URL, or null when the token is forged, altered or expired. */
  open(token: string): Promise<string | null>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Creates a sealer keyed by `secret`, or by a random key when none is given (tokens then die with the process). */
export function createSealer(secret: string | undefined, now: () => number = Date.now): Sealer {
  const key = (async () => {
    const raw = secret ? await crypto.subtle.digest('SHA-256', encoder.encode(secret)) : crypto.getRandomValues(new Uint8Array(32));
    return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  })();
  return {
    async seal(url, ttlMs) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const payload = encoder.encode(JSON.stringify({ u: url, e: now() + ttlMs }));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key, payload));
      const token = new Uint8Array(iv.length + sealed.length);
      token.set(iv);
      token.set(sealed, iv.length);
      return toBase64Url(token);
    },
    async open(token) {
      try {
        const bytes = fromBase64Url(token);
        if (bytes.length < 29) return null;
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await key, bytes.slice(12));
        const { u, e } = JSON.parse(decoder.decode(plain)) as { u: unknown; e: unknown };
        return typeof u === 'string' && typeof e === 'number' && e > now() ? u : null;
      } catch {
        return null;
      }
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(text)) throw new Error('bad token');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
