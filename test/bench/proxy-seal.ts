// The CPU of sealing and opening one stream token with each AES-256-GCM the proxy can take (Web Crypto, the default;
// node:crypto, `nodeAesGcm`), in this process, in alternating rounds so that a loaded machine weighs on both alike.
// CPU time (process.cpuUsage, user and kernel, every thread: Web Crypto's work runs on libuv's pool), not wall time.
import { nodeAesGcm } from '../../src/proxy/adapters/node/aes-gcm';
import { createSealer, webAesGcm, type AesGcm } from '../../src/proxy/core/seal';

const ROUNDS = 10;
const PER_ROUND = 2000;
const STREAM = {
  url: 'http://127.0.0.1:8788/api/v1/stream/0123456789abcdef0123456789abcdef',
  conversationId: 'conv0000001',
};

/** CPU µs per call of `run`, over `count` calls in a row. */
async function cpuPerCall(run: () => Promise<unknown>, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await run();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Median CPU µs per seal and per open, for each AES-GCM, over `ROUNDS` alternating rounds. */
export async function sealCosts(): Promise<void> {
  const sides: [string, AesGcm][] = [
    ['Web Crypto (default)', webAesGcm],
    ['node:crypto (nodeAesGcm)', nodeAesGcm],
  ];
  const samples = sides.map(() => ({ seal: [] as number[], open: [] as number[] }));
  const sealers = sides.map(([, aesGcm]) => createSealer(['bench-secret-0123456789abcdef'], Date.now, aesGcm));
  const token = await sealers[0]!.seal(STREAM, 60_000);
  for (let round = -1; round < ROUNDS; round++) {
    for (const [i, sealer] of sealers.entries()) {
      const seal = await cpuPerCall(() => sealer.seal(STREAM, 60_000), PER_ROUND);
      const open = await cpuPerCall(() => sealer.open(token), PER_ROUND);
      // Round -1 warms the JIT up.
      if (round < 0) continue;
      samples[i]!.seal.push(seal);
      samples[i]!.open.push(open);
    }
  }
  console.log(`\nStream tokens: CPU per call (median of ${ROUNDS} alternating rounds of ${PER_ROUND})`);
  console.table(
    sides.map(([what], i) => ({
      what,
      'seal µs': median(samples[i]!.seal).toFixed(1),
      'open µs': median(samples[i]!.open).toFixed(1),
    })),
  );
}
