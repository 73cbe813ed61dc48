import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm run simulator` printed: the values an owner copies into their own proxy's settings. */
export interface SandboxValues {
  apiUrl: string;
  apiKey: string;
  botId: string;
}

/**
 * `npm run simulator -- --port 0` as an owner runs it (its own process), read back from what it prints. Resolves
 * once the three variables are out; `stop()` ends the process.
 */
export async function startSandbox(): Promise<SandboxValues & { output: string; stop(): Promise<void> }> {
  const child = spawn('npm', ['run', 'simulator', '--', '--port', '0'], {
    cwd: ROOT,
    // Its own process group, so stop() ends npm, its shell and tsx's node together.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const printed = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run simulator printed no settings:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/^CODY_BOT_ID=.+$/m.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => reject(new Error(`npm run simulator exited:\n${output}`)));
  });
  const value = (name: string) => {
    const found = new RegExp(`^${name}=(.+)$`, 'm').exec(printed)?.[1];
    if (!found) throw new Error(`npm run simulator did not print ${name}:\n${printed}`);
    return found.trim();
  };
  return {
    apiUrl: value('CODY_API_URL'),
    apiKey: value('CODY_API_KEY'),
    botId: value('CODY_BOT_ID'),
    output: printed,
    async stop() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}
