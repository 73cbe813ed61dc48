import { signal } from '@preact/signals';
import { parseConfig } from '../../src/config/parse';
import { ChatModel } from '../../src/state/model';
import type { WidgetEvents } from '../../src/state/events';
import type { PanelStore } from '../../src/state/panel';
import type { KeyValueStore } from '../../src/state/storage';
import { createFakeClient } from './fake-client';
import { createMemoryStorage } from './memory-storage';

/**
 * A chat model over a scripted fake client (see `createFakeClient`) for bot `bot000000001` at `/askbox`, with
 * `input` as further config; it records every event it emits and every status it passes through. `online` stands
 * for the browser's connection.
 */
export function createTestModel(input: Record<string, unknown> = {}, storage: KeyValueStore = createMemoryStorage()) {
  const fake = createFakeClient();
  const parsed = parseConfig({ botId: 'bot000000001', proxyUrl: '/askbox', ...input });
  if (!parsed.config) throw new Error('bad test config');
  const events: Array<{ type: keyof WidgetEvents; detail: unknown }> = [];
  const online = signal(true);
  const model = new ChatModel({
    client: fake.client,
    storage,
    config: parsed.config,
    emit: (type, detail) => events.push({ type, detail }),
    online,
    panel: createPanelStore(),
  });
  const statuses: string[] = [];
  model.status.subscribe((status) => statuses.push(status.type));
  return { ...fake, model, storage, events, statuses, online };
}

/** The panel's open state, held in memory: in a widget, the launcher's widget model holds it. */
export function createPanelStore(): PanelStore {
  const store = {
    open: false,
    setOpen(open: boolean) {
      store.open = open;
    },
  };
  return store;
}
