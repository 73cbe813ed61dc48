import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { containsWords, createScenarioPlayer, loadScenario, parseScenario } from '../../../../demo/simulator/scenario';

const dir = fileURLToPath(new URL('../../../../demo/scenarios/', import.meta.url));

describe('shipped scenario files', () => {
  it.each(readdirSync(dir))('%s is a valid scenario', (file) => {
    expect(loadScenario(dir + file).replies?.length).toBeGreaterThan(0);
  });
});

describe('scenarios', () => {
  it('rejects malformed scenarios with the field named', () => {
    expect(() => parseScenario({ replies: [{ delayMs: -1 }] })).toThrow('scenario.replies[0].delayMs');
    expect(() => parseScenario({ replies: [{ chunkSize: [1, 0] }] })).toThrow('chunkSize');
    expect(() => parseScenario([])).toThrow('JSON object');
    expect(parseScenario({ replies: [{ match: 'x', text: 'y', cutAfter: 1 }] }).replies).toHaveLength(1);
  });

  it.each([
    ['Please stall now', 'stall', true],
    ['STALL.', 'stall', true],
    ['stall', 'stall', true],
    ['Is the plugin installing?', 'stall', false],
    ['stalled', 'stall', false],
    ['a fault-free reply', 'fail', false],
    ['it may fail, then', 'fail', true],
    ['give me a slow stream', 'slow stream', true],
    ['a slow streamer', 'slow stream', false],
    ['payload 10.', 'payload 1.', false],
    ['see payload 1. here', 'payload 1.', true],
    ['bench stream-20k', 'bench stream-20k', true],
    ['rebench stream-20k', 'bench stream-20k', false],
    ['no words from élan here', 'lan', false],
  ])('matches "%s" against "%s" as whole words: %s', (text, phrase, expected) => {
    expect(containsWords(text, phrase)).toBe(expected);
  });

  it('answers a message with the scripted reply whose match it contains as whole words', () => {
    const player = createScenarioPlayer({
      replies: [{ match: 'stall', text: 'stalled' }, { text: 'in order' }],
    });
    expect(player.next('How is installing going?').text).toBe('in order');
    expect(player.next('Make it stall').text).toBe('stalled');
  });
});
