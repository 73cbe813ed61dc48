import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports';
import { commandVariables, readmeBlock, readmeBlocks } from './readme';
import { startProcess } from './process';

const HEADING = 'From zero to a chat on your own page';

/** The variables step 4 of the README's walkthrough starts the proxy with (`NAME=value` before `node`). */
export function walkthroughVariables(): Record<string, string> {
  return commandVariables(readmeBlocks(HEADING, 'sh')[0]?.code ?? '');
}

/** The ports the walkthrough's three terminals listen on, as its steps name them. */
export interface WalkthroughPorts {
  simulator: number;
  proxy: number;
  page: number;
}

/** The port a URL names (NaN when it is no URL or names none). */
function portOf(url = ''): number {
  return Number(URL.canParse(url) ? new URL(url).port || NaN : NaN);
}

/** The walkthrough's ports: the simulator's and the page's from step 4's variables, the proxy's from step 5's tag. */
export function walkthroughPorts(): WalkthroughPorts {
  const variables = walkthroughVariables();
  const proxyUrl = /data-proxy-url="([^"]+)"/.exec(readmeBlocks(HEADING, 'sh')[1]?.code ?? '')?.[1] ?? '';
  return {
    simulator: portOf(variables.CODY_API_URL),
    proxy: portOf(proxyUrl),
    page: portOf(variables.ASKBOX_ALLOWED_ORIGINS),
  };
}

/** Step 5's page, served by step 5's own command. */
export interface WalkthroughSite {
  origin: string;
  /**
   * A copy of step 5's index.html next to it, its tag naming another bot and proxy (one page per recipe, as an owner
   * would edit the tag to try each); answers the copy's address.
   */
  pageFor(name: string, tag: { botId: string; proxyUrl: string }): string;
  output: string[];
  close(): Promise<void>;
}

/**
 * Step 5 of the walkthrough run as written in `project`: its server saved under the name its last line runs with
 * `node`, then its shell block (`sh -e`), which makes site/ and serves it. PORT moves the server from its documented
 * port to a free one, as the server itself allows. Resolves once the page answers.
 */
export async function startWalkthroughSite(project: string): Promise<WalkthroughSite> {
  const step5 = readmeBlocks(HEADING, 'sh')[1]?.code ?? '';
  const server = /^node (\S+\.mjs)$/.exec(step5.trimEnd().split('\n').at(-1) ?? '')?.[1];
  if (!server)
    throw new Error(`README.md "${HEADING}" step 5 no longer serves site/ with \`node <file>.mjs\`:\n${step5}`);
  writeFileSync(join(project, server), readmeBlock(HEADING, 'js'));
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const running = startProcess({ command: 'sh', args: ['-ec', step5], cwd: project, env: { PORT: String(port) } });
  const deadline = Date.now() + 20_000;
  while (
    !(await fetch(origin).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) {
      await running.close();
      throw new Error(`step 5's page did not come up on ${origin}:\n${running.output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const site = join(project, 'site');
  return {
    origin,
    output: running.output,
    close: running.close,
    pageFor(name, tag) {
      const file = `${name.toLowerCase().replace(/\W+/g, '-')}.html`;
      const page = readFileSync(join(site, 'index.html'), 'utf8')
        .replace(/data-bot-id="[^"]*"/, `data-bot-id="${tag.botId}"`)
        .replace(/data-proxy-url="[^"]*"/, `data-proxy-url="${tag.proxyUrl}"`);
      writeFileSync(join(site, file), page);
      return `${origin}/${file}`;
    },
  };
}
