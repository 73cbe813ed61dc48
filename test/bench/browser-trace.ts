// Main-thread CPU per stretch of time, from a Chromium trace: the renderer main thread's `RunTask` events carry their
// wall duration (`dur`) and their thread CPU time (`tdur`). The page's clock (performance.now()) is tied to the
// trace's through one user-timing mark that the page sets and whose startTime it reports.

/** The trace categories this needs: the main thread's tasks and the page's user-timing marks. */
export const TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'blink.user_timing'];

interface TraceEvent {
  name?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  tdur?: number;
}

/** CPU of the page's main thread over a stretch of page time, in ms. */
export type CpuBetween = (fromMs: number, toMs: number) => number;

/**
 * Reads `trace` (Chromium's JSON trace) and returns the main thread's CPU between two page times. The main thread is
 * the one that set the mark `markName`, set at page time `markAt`. A task that straddles a bound counts with the part
 * of its CPU time proportional to the part of its wall time inside: within one task the thread runs or is preempted
 * alike throughout, as far as can be known. Undefined when the trace lacks the mark.
 */
export function readTrace(trace: Buffer, markName: string, markAt: number): CpuBetween | undefined {
  const { traceEvents = [] } = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] };
  const mark = traceEvents.find((event) => event.name === markName && event.ts !== undefined);
  if (!mark?.ts) return undefined;
  // Trace timestamps are µs of the same monotonic clock as the page's time origin.
  const offset = mark.ts / 1000 - markAt;
  const tasks = traceEvents
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === mark.pid && e.tid === mark.tid)
    .map((e) => ({
      start: (e.ts ?? 0) / 1000 - offset,
      wall: (e.dur ?? 0) / 1000,
      cpu: (e.tdur ?? e.dur ?? 0) / 1000,
    }));
  return (fromMs, toMs) =>
    tasks.reduce((sum, task) => {
      const overlap = Math.min(toMs, task.start + task.wall) - Math.max(fromMs, task.start);
      if (overlap <= 0) return sum;
      return sum + (task.wall > 0 ? (task.cpu * overlap) / task.wall : task.cpu);
    }, 0);
}
