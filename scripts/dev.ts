/**
 * `npm run dev`: the API with --watch on port 4322 (no static serving) and Astro's dev server on
 * 4321, which proxies every server path to it (SERVER_PATH_PREFIXES: /api, /auth, /checkout,
 * /media, /uploads, /samples), so pages hot-reload and calls stay same-origin. The blog pages read
 * the posts snapshot the API writes into DATA_DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.API_PORT ?? '4322';
const sitePort = process.env.PORT ?? '4321';
// The API builds checkout return addresses and checks form origins with PUBLIC_SITE_URL, never
// with the request's Host: in dev the public site is Astro's server, not the API's port.
const publicSiteUrl = process.env.PUBLIC_SITE_URL || `http://localhost:${sitePort}`;
const dataDir = path.resolve(root, process.env.DATA_DIR ?? 'data');
const children: ChildProcess[] = [];

const start = (args: string[], env: Record<string, string>) => {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  child.on('exit', (code) => {
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  children.push(child);
};

start(['--watch-path=server', '--watch-path=content', 'server/main.ts'], {
  PORT: apiPort,
  SERVE_SITE: 'false',
  PUBLIC_SITE_URL: publicSiteUrl,
});
start([path.join(root, 'node_modules/astro/bin/astro.mjs'), 'dev', '--port', sitePort], {
  API_PROXY_TARGET: `http://127.0.0.1:${apiPort}`,
  BLOG_SNAPSHOT_PATH: path.join(dataDir, 'site', 'posts-snapshot.json'),
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
