import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Parse from '../../../src/config/parse';

// Imported afresh for each test: module-level constants are built when a module loads, and a runner that keeps
// modules loaded between runs (as Stryker's does) would otherwise test the copy it loaded first. Per test, not once
// per file, so that Stryker counts the load towards the test that checks it.
let parseConfig: typeof Parse.parseConfig;
let parseLauncherConfig: typeof Parse.parseLauncherConfig;
beforeEach(async () => {
  vi.resetModules();
  ({ parseConfig, parseLauncherConfig } = await import('../../../src/config/parse'));
});

const minimal = { botId: 'yiu456ytyUjk', proxyUrl: '/askbox' };

describe('parseConfig names unknown keys whatever else is wrong', () => {
  it('names a typo of a required key next to the issue it causes (data-botid alone)', () => {
    const result = parseLauncherConfig({ botid: 'yiu456ytyUjk', proxyUrl: '/askbox' });
    expect(result.issues).toEqual([{ key: 'botId', message: expect.stringContaining('is required') }]);
    expect(result.unknown).toEqual(['botid']);
    expect(result.closest.get('botid')).toBe('botId');
  });

  it('names an unknown key next to an invalid value (data-positon beside data-theme="drak")', () => {
    const result = parseLauncherConfig({ ...minimal, positon: 'bottom-left', theme: 'drak' });
    expect(result.issues).toEqual([{ key: 'theme', message: expect.stringContaining('"drak"') }]);
    expect(result.unknown).toEqual(['positon']);
    expect(result.closest.get('positon')).toBe('position');
  });

  it('suggests the setting a key is a typo of, and none when no setting is near', () => {
    const { config, unknown, closest } = parseLauncherConfig({
      ...minimal,
      colour: 'red',
      thme: 'dark',
      hndoffUrl: 'x',
    });
    expect(config).toBeDefined();
    expect(unknown).toEqual(['colour', 'thme', 'hndoffUrl']);
    expect([...closest]).toEqual([
      ['thme', 'theme'],
      ['hndoffUrl', 'handoffUrl'],
    ]);
  });

  it('leaves text keys to the chat file in the launcher, and names them with their suggestion in mount()', () => {
    const input = { ...minimal, textSned: 'Go', text: { sendd: 'x', errors: { htp: 'y' } } };
    expect(parseLauncherConfig(input).unknown).toEqual([]);
    const { unknown, closest } = parseConfig(input);
    expect(unknown).toEqual(['textSned', 'text.sendd', 'text.errors.htp']);
    expect([...closest]).toEqual([
      ['textSned', 'textSend'],
      ['text.sendd', 'text.send'],
      ['text.errors.htp', 'text.errors.http'],
    ]);
  });

  it('names typos in mount() even when the config has issues', () => {
    const result = parseConfig({ botid: 'x', proxyUrl: '/askbox', textSned: 'Go' });
    expect(result.issues).toHaveLength(1);
    expect(result.unknown).toEqual(['botid', 'textSned']);
    expect([...result.closest]).toEqual([
      ['botid', 'botId'],
      ['textSned', 'textSend'],
    ]);
  });
});
