import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../demo/simulator/scenario';

const dir = fileURLToPath(new URL('../../../demo/scenarios/', import.meta.url));

describe('shipped scenario files', () => {
  it.each(readdirSync(dir))('%s is a valid scenario', (file) => {
    expect(loadScenario(dir + file).replies?.length).toBeGreaterThan(0);
  });
});
