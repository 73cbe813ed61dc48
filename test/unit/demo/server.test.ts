import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startDemoServer } from '../../../demo/server';

const PAGES = new URL('../../../demo/pages/', import.meta.url);

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

describe('demo pages', () => {
  it.each(readdirSync(PAGES).filter((file) => file.endsWith('.html')))(
    '%s lays itself out for the device width (a phone shows it at its own size, not zoomed out)',
    (file) => {
      expect(readFileSync(new URL(file, PAGES), 'utf8')).toContain(
        '<meta name="viewport" content="width=device-width, initial-scale=1" />',
      );
    },
  );
});
