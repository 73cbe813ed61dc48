import { describe, expect, it } from 'vitest';
import { startDemoServer } from '../../demo/server';

describe('demo server', () => {
  it('listens on the loopback interface unless told otherwise, since it serves the simulator and its key', async () => {
    const demo = await startDemoServer({ port: 0 });
    try {
      expect(demo.address).toBe('127.0.0.1');
      expect((await fetch(`${demo.url.replace('localhost', '127.0.0.1')}/askbox/health`)).status).toBe(200);
    } finally {
      await demo.close();
    }
  });
});
