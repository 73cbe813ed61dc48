import type { Scenario } from '../../demo/simulator/scenario';
import { parseConfig } from '../../src/config/parse';
import type { WidgetConfig } from '../../src/config/schema';
import { ChatModel, type WidgetEvents } from '../../src/state/chat-model';
import type { ProxyOptions } from '../../src/proxy/handler';
import type { KeyValueStore } from '../../src/state/storage';
import { createMemoryStorage } from './memory-storage';
import { setupStack } from './stack';

/** A chat model over the in-process proxy + simulator, recording its events. */
type Overrides = Partial<Record<keyof WidgetConfig, unknown>>;

export function setupModel(
  scenario: Scenario = {},
  overrides: Overrides | ((stack: ReturnType<typeof setupStack>) => Overrides) = {},
  storage: KeyValueStore = createMemoryStorage(),
  proxyOptions: Partial<ProxyOptions> = {},
) {
  const stack = setupStack(scenario, proxyOptions);
  const extra = typeof overrides === 'function' ? overrides(stack) : overrides;
  const { config } = parseConfig({ botId: stack.botId, proxyUrl: '/askbox', ...extra });
  if (!config) throw new Error('bad test config');
  const events: Array<{ type: keyof WidgetEvents; detail: unknown }> = [];
  const model = new ChatModel({
    client: stack.client,
    storage,
    config,
    emit: (type, detail) => events.push({ type, detail }),
  });
  return { ...stack, model, storage, config, events };
}
