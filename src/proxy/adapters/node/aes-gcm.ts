import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { AesGcm } from '../../core/seal.js';

const TAG_BYTES = 16;

/**
 * AES-256-GCM on `node:crypto` for stream tokens: the same tokens as the default (Web Crypto), byte for byte, at a
 * fraction of the CPU (on Node 20, about 6.5 µs a seal against 45 µs: Web Crypto runs each call as a job on
 * libuv's thread pool and resolves a promise; this runs inline).
 *
 * @example
 * const proxy = createProxy({ apiKey, botIds, secret, fetch: nodeFetch, aesGcm: nodeAesGcm });
 */
export const nodeAesGcm: AesGcm = (raw) => {
  const key = Buffer.from(raw);
  return {
    encrypt(iv, plain) {
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    },
    decrypt(iv, sealed) {
      if (sealed.length < TAG_BYTES) return null;
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      // SECURITY: the tag is set before any byte is read, and final() throws unless it checks.
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      } catch {
        return null;
      }
    },
  };
};
