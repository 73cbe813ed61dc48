import { widgetKey, type WidgetConfig } from '../config/schema.js';
import type { WidgetHandle } from './handle.js';

/** The widgets one copy of Askbox runs on a page, in the order they started. */
export interface Registry {
  /** The first live widget: the one `window.Askbox` controls. */
  first(): WidgetHandle | undefined;
  /** The live widget whose `instance` (else bot id) is `name`. */
  get(name: string): WidgetHandle | undefined;
  /** The live widget with `config`'s identity (see `widgetKey`): a second tag or element of it joins this one. */
  find(config: WidgetConfig): WidgetHandle | undefined;
  /** Lists a started widget; the handle returned also takes it off the list when destroyed. */
  add(config: WidgetConfig, started: WidgetHandle): WidgetHandle;
}

/** A registry; `onEmpty` runs when its last widget is destroyed. */
export function createRegistry(onEmpty?: () => void): Registry {
  const widgets = new Map<string, { name: string; handle: WidgetHandle }>();
  return {
    first: () => widgets.values().next().value?.handle,
    get: (name) => [...widgets.values()].find((widget) => widget.name === name)?.handle,
    find: (config) => widgets.get(widgetKey(config))?.handle,
    add(config, started) {
      const key = widgetKey(config);
      const handle: WidgetHandle = {
        ...started,
        destroy() {
          started.destroy();
          if (widgets.get(key)?.handle !== handle) return;
          widgets.delete(key);
          if (widgets.size === 0) onEmpty?.();
        },
      };
      widgets.set(key, { name: config.instance ?? config.botId, handle });
      return handle;
    },
  };
}
