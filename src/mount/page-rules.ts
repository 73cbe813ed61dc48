import { pathAllowed } from '../config/paths.js';
import type { WidgetConfig } from '../config/schema.js';
import { watchNavigation } from './navigation.js';

/**
 * Follows a widget's page rules (`showOn`, `hideOn`) on the page in `view`: calls `onChange(true)` at once if they
 * allow the widget on its path, then `onChange(allowed, true)` after each navigation that changes what they say.
 * Returns how to stop; a widget (or greeting, mount/greeting.ts) without rules is allowed everywhere, and listens to no navigation.
 */
export function followPageRules(
  config: Pick<WidgetConfig, 'showOn' | 'hideOn'>,
  view: Window,
  onChange: (allowed: boolean, navigated?: boolean) => void,
): (() => void) | undefined {
  let allowed = pathAllowed(config, view.location.pathname);
  if (allowed) onChange(allowed);
  return config.showOn.length + config.hideOn.length > 0
    ? watchNavigation(view, () => {
        if (allowed === pathAllowed(config, view.location.pathname)) return;
        allowed = !allowed;
        onChange(allowed, true);
      })
    : undefined;
}
