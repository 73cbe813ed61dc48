import { spawn } from 'node:child_process';

/** A server started as a site owner starts it: what it printed, and how to stop it. */
export interface OwnerProcess {
  output: string[];
  close(): Promise<void>;
}

/** What to run, where, and with which variables (on top of PATH and HOME, as in a fresh terminal). */
export interface OwnerCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * `command` as an owner runs it in a terminal, in its own process group, so that `close()` stops everything it
 * started (a shell's child, npm's node, php -S's workers) together.
 */
export function startProcess({ command, args, cwd, env }: OwnerCommand): OwnerProcess {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    output,
    async close() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    },
  };
}
