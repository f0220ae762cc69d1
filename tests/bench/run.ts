/**
 * `npm run bench`: throughput and latency of the API and the static pages, each as a ratio of a
 * bare Fastify hello-world measured in the same run (absolute numbers vary between machines;
 * ratios taken together do not). Runs on PGlite and, with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL, on PostgreSQL. Prints a table and writes bench-results.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '../..');
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Row {
  target: string;
  database: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  ratio: number;
  non2xx: number;
}

function startProcess(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)|Server listening at http:\/\/[\d.]+:(\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1] ?? match[2]) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${script} exited ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections, duration, headers });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

async function benchApp(
  database: string,
  databaseUrl: string | null,
  ceiling: number,
): Promise<Row[]> {
  const { child, port } = await startProcess('server/main.ts', {
    PORT: '0',
    DATA_DIR: path.join(root, '.test-output', 'bench-data', database),
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const signIn = await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', email: 'bench@example.com' }),
    });
    const { data } = (await signIn.json()) as { data: { token: string } };
    const targets: Array<[string, string, Record<string, string>?]> = [
      ['GET /api/health', '/api/health'],
      [
        'GET /api/credits/balance (signed in)',
        '/api/credits/balance',
        { authorization: `Bearer ${data.token}` },
      ],
      ['GET / (static)', '/'],
      ['GET /login (static)', '/login'],
    ];
    const rows: Row[] = [];
    for (const [target, urlPath, headers] of targets) {
      const m = await measure(base + urlPath, headers);
      rows.push({ target, database, ...m, ratio: +(m.reqPerSec / ceiling).toFixed(2) });
    }
    return rows;
  } finally {
    child.kill('SIGTERM');
  }
}

const ceilingProc = await startProcess('tests/bench/ceiling.ts', { PORT: '0' });
const ceilingM = await measure(`http://127.0.0.1:${ceilingProc.port}/`);
ceilingProc.child.kill('SIGTERM');
const rows: Row[] = [
  { target: 'bare Fastify hello-world (ceiling)', database: '-', ...ceilingM, ratio: 1 },
];

rows.push(...(await benchApp('pglite', null, ceilingM.reqPerSec)));

const pgBase = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgBase) {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgBase);
  url.pathname = `/${name}`;
  try {
    rows.push(...(await benchApp('postgres', url.toString(), ceilingM.reqPerSec)));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const table = [
  '| target | db | req/s | p50 ms | p99 ms | ratio to ceiling | non-2xx |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.target} | ${r.database} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.ratio} | ${r.non2xx} |`,
  ),
].join('\n');
console.log(`\n${connections} connections, ${duration} s each\n\n${table}`);
writeFileSync(
  path.join(root, 'bench-results.json'),
  JSON.stringify(
    { takenAt: new Date().toISOString(), connections, durationSeconds: duration, rows },
    null,
    2,
  ),
);
