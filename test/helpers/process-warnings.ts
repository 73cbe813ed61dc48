import { afterAll, afterEach } from 'vitest';

/**
 * A Vitest setup file for the node project: any process warning (a MaxListenersExceededWarning from a leaked
 * listener, a deprecation, an unhandled-rejection notice) fails the test during which it was emitted, or the file
 * when it comes after the last test. Node would only print it, and a leak would go unnoticed.
 */
const warnings: Error[] = [];
const record = (warning: Error) => void warnings.push(warning);
process.on('warning', record);

async function check() {
  // Node emits a warning on a later tick than the code that caused it.
  await new Promise((resolve) => setImmediate(resolve));
  if (warnings.length === 0) return;
  const found = warnings.splice(0).map((warning) => `${warning.name}: ${warning.message}`);
  throw new Error(`Process warning${found.length > 1 ? 's' : ''}:\n${found.join('\n')}`);
}

afterEach(check);
afterAll(async () => {
  await check();
  process.off('warning', record);
});
