import type { Call } from '../call.js';
import type { ProxyDeps } from '../deps.js';

/** `GET challenge`: a proof of work to solve before a new conversation, raised for an IP or visitor that asks often. */
export async function challenge({ proof, policy }: ProxyDeps, call: Call): Promise<Response> {
  return proof.challenge(call.ip, await policy.visitorOf(call));
}
