import type { Browser } from 'playwright-core';
import { freshBuild } from './build';
import { readmeBlock, readmeSection } from './readme';
import type { SandboxValues } from './sandbox';
import { walkthroughPorts } from './walkthrough';
import { startWordPress } from './wordpress';
import { activatePlugin, installWordPress, saveSettings } from './wordpress-admin';

const HEADING = 'Trying the plugin against the simulator';

/**
 * The README's must-use plugin for trying the plugin against `npm run simulator`: its file name (where the README
 * says to save it) and its code, as written but for the simulator's documented port, moved to where `sandbox` runs.
 */
function readmeMuPlugin(sandbox: SandboxValues): Record<string, string> {
  const name = /save\s+this\s+as\s+`wp-content\/mu-plugins\/([\w-]+\.php)`/.exec(readmeSection(HEADING))?.[1];
  if (!name) throw new Error(`README.md "${HEADING}" no longer names the must-use plugin's file`);
  const documented = `:${walkthroughPorts().simulator}/`;
  const code = readmeBlock(HEADING, 'php');
  if (!code.includes(documented)) throw new Error(`README.md "${HEADING}" no longer points at the simulator's port`);
  return { [name]: code.replace(documented, `:${new URL(sandbox.apiUrl).port}/`) };
}

/**
 * The README's WordPress trial: Debian's WordPress with the plugin as `npm run build` makes it and the README's
 * must-use plugin, installed by its owner in Chromium, the plugin activated, and Settings → Askbox given the key and
 * bot id `npm run simulator` printed.
 */
export async function startWordPressRecipe(browser: Browser, sandbox: SandboxValues) {
  freshBuild('dist/wordpress/askbox/askbox.php');
  const site = await startWordPress(readmeMuPlugin(sandbox));
  const admin = await (await browser.newContext()).newPage();
  // WordPress's installer makes its tables and calls itself: slow on a busy machine, not stuck.
  admin.setDefaultTimeout(60_000);
  try {
    await installWordPress(admin, site.url);
    await activatePlugin(admin, site.url, 'Askbox AI chat');
    await saveSettings(admin, site.url, 'Askbox', { 'Cody API key': sandbox.apiKey, 'Bot id': sandbox.botId });
  } catch (error) {
    await site.close();
    throw new Error(`WordPress was not set up: ${String(error)}\n${site.logTail()}`, { cause: error });
  } finally {
    await admin.context().close();
  }
  return site;
}
