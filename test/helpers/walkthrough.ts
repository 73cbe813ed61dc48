import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { readmeBlocks } from './readme';

const HEADING = 'From zero to a chat on your own page';

/** The variables step 4 of the README's walkthrough starts the proxy with (`NAME=value` before `node`). */
export function walkthroughVariables(): Record<string, string> {
  const step4 = readmeBlocks(HEADING, 'sh')[0]?.code ?? '';
  return Object.fromEntries(
    [...step4.matchAll(/\b([A-Z_]+)=(\S+)/g)].map(([, name = '', value = '']) => [name, value]),
  );
}

/**
 * Step 5 of the walkthrough, run as written in `project` (`sh`), but for its last line: the static server on a fixed
 * port, which the test replaces with its own on a free one. Answers the folder it made.
 */
export function makeWalkthroughSite(project: string): string {
  const step5 = readmeBlocks(HEADING, 'sh')[1]?.code ?? '';
  const lines = step5.trimEnd().split('\n');
  if (!/^python3 -m http\.server \d+ -d site$/.test(lines.at(-1) ?? ''))
    throw new Error(`README.md "${HEADING}" step 5 no longer ends by serving site/:\n${step5}`);
  execFileSync('sh', ['-ec', lines.slice(0, -1).join('\n')], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
  return join(project, 'site');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.json': 'application/json',
};

/**
 * The walkthrough's site folder on a loopback port, as `python3 -m http.server` serves it, except that its
 * `index.html` gets the `bot` and `proxy` of the query in its tag, so that one page tries every recipe.
 */
export function startSite(site: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site.test');
    const path = normalize(join(site, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname)));
    if (!path.startsWith(`${site}/`) || !existsSync(path) || !statSync(path).isFile())
      return void res.writeHead(url.pathname === '/favicon.ico' ? 204 : 404).end();
    let body = readFileSync(path);
    if (path.endsWith('index.html')) {
      const attribute = (name: string) => (url.searchParams.get(name) ?? '').replace(/"/g, '');
      body = Buffer.from(
        body
          .toString()
          .replace(/data-bot-id="[^"]*"/, `data-bot-id="${attribute('bot')}"`)
          .replace(/data-proxy-url="[^"]*"/, `data-proxy-url="${attribute('proxy')}"`),
      );
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
