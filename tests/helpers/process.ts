/**
 * Child processes for tests, the resilience suite and the bench: the project's Node scripts run
 * to their end, a free port for one to listen on, and waiting.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** The checkout: scripts run from here, as npm runs them. */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> ...args` in the project with `env`, writes `input` to its stdin. */
export function runScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on right now (the kernel picks it; we release it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
