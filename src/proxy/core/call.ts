import type { RequestTelemetry } from './telemetry.js';

/** A request on its way through the proxy, with what the proxy has learnt of it on arrival. */
export interface Call {
  request: Request;
  url: URL;
  /** The client's address, for per-IP limits. */
  ip: string;
  /** Its span and route template, for the telemetry of the calls it makes. */
  seen: RequestTelemetry;
}
