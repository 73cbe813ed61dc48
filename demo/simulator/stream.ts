/** How one reply is streamed (see ScenarioReply for the fault fields). */
export interface StreamPlan {
  text: string;
  chunkSize: number | number[];
  delayMs: number;
  cutAfter?: number | undefined;
  stallAfter?: number | undefined;
}

const encoder = new TextEncoder();
const event = (data: string) => encoder.encode(`data: ${data}\n\n`);

/** Splits text into chunks of code points (never inside a surrogate pair), cycling through `sizes`. */
export function toChunks(text: string, sizes: number | number[]): string[] {
  const points = Array.from(text);
  const cycle = [sizes].flat();
  const chunks: string[] = [];
  for (let i = 0, n = 0; i < points.length; n++) {
    const size = cycle[n % cycle.length] ?? 12;
    chunks.push(points.slice(i, i + size).join(''));
    i += size;
  }
  return chunks;
}

/**
 * The SSE body of a reply, in the service's format: `data: [START]`, `data: {"chunk": "…"}`…, `data: [END]`.
 * Honours the plan's faults: `cutAfter` closes the stream without `[END]`, `stallAfter` goes silent until the
 * client goes away. Stops as soon as the client cancels.
 */
export function createReplyStream(plan: StreamPlan): ReadableStream<Uint8Array> {
  let cancelled = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(event('[START]'));
      const chunks = toChunks(plan.text, plan.chunkSize);
      for (const [index, chunk] of chunks.entries()) {
        if (plan.cutAfter !== undefined && index >= plan.cutAfter) {
          controller.close();
          return;
        }
        if (plan.stallAfter !== undefined && index >= plan.stallAfter) {
          // Silent, with the connection open, until the client gives up.
          await new Promise<void>((resolve) => (wake = resolve));
          return;
        }
        await sleep(plan.delayMs);
        if (cancelled) return;
        controller.enqueue(event(JSON.stringify({ chunk })));
      }
      await sleep(plan.delayMs);
      if (cancelled) return;
      controller.enqueue(event('[END]'));
      controller.close();
    },
    cancel() {
      cancelled = true;
      wake?.();
    },
  });
}
