import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, runScript } from '../helpers/process.ts';

/** Starts server/main.ts as `npm start` would (without the site) and waits for its port. */
function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SERVE_SITE: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, exited, output: () => output };
}

describe('the server process (npm start)', () => {
  it('serves, then on SIGTERM finishes and exits 0 with its database closed cleanly', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-main-'));
    try {
      const first = startServer(dataDir);
      const port = await first.port;
      const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Persist', email: 'persist@example.com' }),
      });
      expect(signIn.status).toBe(200);
      const { data } = (await signIn.json()) as { data: { token: string } };
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(/shutting down/);

      // The embedded database was closed cleanly: a new process opens it and the session is there.
      const second = startServer(dataDir);
      const port2 = await second.port;
      const me = await fetch(`http://127.0.0.1:${port2}/api/auth/user`, {
        headers: { authorization: `Bearer ${data.token}` },
      });
      expect(me.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start in production without its secrets and names the variable', async () => {
    const { code, stderr } = await runScript('server/main.ts', [], {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: '',
      GOOGLE_CLIENT_ID: '',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('NODE_ENV=production refuses to start');
    expect(stderr).toContain('DATABASE_URL');
    expect(stderr).toContain('GOOGLE_CLIENT_ID');
  });
});
