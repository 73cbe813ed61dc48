import { createHmac } from 'node:crypto';
import { connect } from 'node:net';

/** A raw HTTP/1.1 exchange: the exact request line and headers, which fetch would normalise away. */
export function rawRequest(baseUrl: string, head: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      // One response is enough: stop once its headers and declared body are in.
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(text)?.[1];
      if (
        end !== -1 &&
        (length === undefined
          ? text.endsWith('\r\n0\r\n\r\n') || !/transfer-encoding/i.test(text.slice(0, end))
          : text.length >= end + 4 + Number(length))
      )
        socket.end();
    });
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
    socket.write(`${head.replace(/\n/g, '\r\n')}\r\n\r\n`);
  });
}

/**
 * Mints a grant independently of the proxy, from the documented format alone (`g1.<conversation>.<bot>.<visitor>.
 * <expiry>.<base64url HMAC-SHA256>`), with node:crypto rather than Web Crypto: every runtime must accept it.
 */
export function mintGrant(
  secret: string,
  parts: { conversationId: string; botId: string; visitorId: string; expires: number },
): string {
  const payload = ['g1', parts.conversationId, parts.botId, parts.visitorId, String(parts.expires)].join('.');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

/** The parts of a grant, read without checking it. */
export function readGrant(grant: string) {
  const [, conversationId = '', botId = '', visitorId = '', expires = '0'] = grant.split('.');
  return { conversationId, botId, visitorId, expires: Number(expires) };
}

/** Reads a body chunk by chunk, with the time each chunk arrived (ms since the call). */
export async function readTimed(
  response: Response,
): Promise<{ chunks: { at: number; text: string }[]; error: unknown }> {
  const started = Date.now();
  const chunks: { at: number; text: string }[] = [];
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks, error: undefined };
      chunks.push({ at: Date.now() - started, text: decoder.decode(value, { stream: true }) });
    }
  } catch (error) {
    return { chunks, error };
  }
}
