import { allowedStreamUrl, type StreamHosts } from './hosts.js';
import { SERVICE } from '../../protocol/contract.js';
import { refuse } from './respond.js';

/** One fetch of the stream: the URL, whether to send the key, and the request's own redirect mode. */
export type StreamHop = (url: string, withKey: boolean) => Promise<Response>;

/**
 * Fetches a reply stream, following its redirects by hand (the hop fetches with `redirect: 'manual'`): at most
 * `SERVICE.streamHopsMax` of them, each to a URL the proxy may fetch. The key goes along only while every hop so far has
 * stayed on the service's own origin. A refused hop, or one too many, is a 502 in the service's envelope.
 * SECURITY: a runtime that follows redirects itself may carry `Authorization` to another origin (workerd at older
 * compatibility dates does); here no runtime follows any.
 */
export async function fetchStream(first: URL, hosts: StreamHosts, hop: StreamHop): Promise<Response> {
  let url = first;
  let withKey = url.origin === hosts.upstreamOrigin;
  for (let hops = 0; ; hops++) {
    const response = await hop(url.href, withKey);
    if (!isRedirect(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    const next = location === null ? undefined : allowedStreamUrl(location, url.href, hosts);
    if (!next || hops >= SERVICE.streamHopsMax) return refuse('noStream');
    // Once dropped, the key stays dropped: a hop back to the service does not earn it again.
    withKey = withKey && next.origin === hosts.upstreamOrigin;
    url = next;
  }
}

function isRedirect(status: number): boolean {
  return [301, 302, 303, 307, 308].includes(status);
}
