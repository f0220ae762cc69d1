/**
 * deploy/ stays runnable, checked without Docker (these tests build no image): the compose file
 * sets only variables server/config.ts reads, runs only the project's entry points, and once its
 * .env.example is filled in makes a configuration production accepts; the image is Node 24, runs
 * as a non-root user, checks /api/health/live and holds everything the processes load; the
 * proxy balances both instances and exposes exactly the bucket's public prefixes; README's
 * "Running on several machines" names only real variables and every one that matters there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../server/config.ts';
import { MEDIA_KEYS } from '../../server/core/media-store/types.ts';
import { SOURCE_PATHS } from '../../server/domains/site-build/service.ts';
import { filesUnder, moduleGraph, rel, relativeImports, ROOT } from '../helpers/source-tree.ts';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// ---- deploy/Dockerfile ---------------------------------------------------------------------------

/** Instructions of a Dockerfile: comments dropped, `\` continuations joined. */
function instructions(dockerfile: string): Array<{ op: string; args: string }> {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

const dockerfile = instructions(read('deploy/Dockerfile'));
const finalStage = dockerfile.slice(dockerfile.findLastIndex((i) => i.op === 'FROM'));
/** `KEY=value` pairs of the ENV instructions (the `KEY=value …` form only). */
const imageEnv = Object.fromEntries(
  finalStage
    .filter((i) => i.op === 'ENV')
    .flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
);
/** The runtime stage's COPY sources taken from the build context (not from another stage). */
const copiedPaths = finalStage
  .filter((i) => i.op === 'COPY' && !/--from=/.test(i.args))
  .flatMap((i) =>
    i.args
      .split(/\s+/)
      .filter((word) => !word.startsWith('--'))
      .slice(0, -1),
  );
const imageCommand = JSON.parse(finalStage.find((i) => i.op === 'CMD')!.args) as string[];

/** Packages a module imports by name (value imports only: `import type` is erased). */
function packageImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const statics = [
    ...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm),
  ]
    .filter((m) => !m[1])
    .map((m) => m[2]!);
  const dynamics = [...source.matchAll(/(?<![.\w])import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!);
  return [...statics, ...dynamics]
    .filter((spec) => !spec.startsWith('.') && !spec.startsWith('astro:') && !isBuiltin(spec))
    .map((spec) =>
      spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

/** The processes the image runs: npm start, npm run worker, npm run build, npm run admin. */
const ENTRIES = [
  'server/main.ts',
  'server/worker.ts',
  'server/domains/site-build/cli.ts',
  'scripts/admin.ts',
];
const loadedModules = [
  ...new Set(ENTRIES.flatMap((entry) => [...moduleGraph(path.join(ROOT, entry))])),
];

describe('deploy/Dockerfile', () => {
  it('builds every stage on Node 24, the version the node devDependency pins', () => {
    const args = Object.fromEntries(
      dockerfile
        .slice(
          0,
          dockerfile.findIndex((i) => i.op === 'FROM'),
        )
        .filter((i) => i.op === 'ARG')
        .map((i) => i.args.split('=') as [string, string]),
    );
    const bases = dockerfile
      .filter((i) => i.op === 'FROM')
      .map((i) =>
        i.args.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$/, (_, name: string) => args[name]!),
      );
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toMatch(/^node:24(?:[.-]|$)/);
    expect(pkg.devDependencies.node).toMatch(/^24\./);
  });

  it('runs as a user that is not root from before its command', () => {
    const users = finalStage.filter((i) => i.op === 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(finalStage.indexOf(users.at(-1)!)).toBeLessThan(
      finalStage.findIndex((i) => i.op === 'CMD'),
    );
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
  });

  it("runs npm start's command, checks /api/health/live and stops on SIGTERM", () => {
    expect(imageCommand.join(' ')).toBe(pkg.scripts.start);
    expect(finalStage.find((i) => i.op === 'HEALTHCHECK')?.args).toContain('/api/health/live');
    expect(finalStage.find((i) => i.op === 'STOPSIGNAL')?.args).toBe('SIGTERM');
  });

  it("installs Debian's ffmpeg in the image that runs, for providers' videos (issue 34)", () => {
    const installs = finalStage.filter((i) => i.op === 'RUN' && /apt-get install/.test(i.args));
    expect(installs.map((i) => i.args).join(' ')).toMatch(/\bffmpeg\b/);
  });

  it('sets only variables server/config.ts reads', () => {
    expect(Object.keys(imageEnv).length).toBeGreaterThan(0);
    expect(Object.keys(imageEnv).filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
  });

  it('copies every module and data file the processes load, and the build context admits them', () => {
    const loaded = loadedModules.flatMap((file) => [file, ...relativeImports(file)]).map(rel);
    const inImage = (file: string) =>
      copiedPaths.some((copied) => file === copied || file.startsWith(`${copied}/`));
    expect(loaded.filter((file) => !inImage(file))).toEqual([]);
    // The site build's inputs (server/domains/site-build/service.ts, SOURCE_PATHS).
    for (const input of SOURCE_PATHS) {
      expect(inImage(input), input).toBe(true);
    }
    const ignore = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignore[0]).toBe('*'); // everything else (.env, data/, node_modules) stays out
    const admitted = ignore.filter((line) => line.startsWith('!')).map((line) => line.slice(1));
    expect(copiedPaths.filter((copied) => !admitted.includes(copied))).toEqual([]);
    for (const copied of copiedPaths)
      expect(existsSync(path.join(ROOT, copied)), copied).toBe(true);
  });

  it('installs dependencies only, and everything the processes and the site build import is one', () => {
    const install = dockerfile.find((i) => i.op === 'RUN' && /npm install/.test(i.args));
    expect(install?.args).toContain('--omit=dev');
    const siteFiles = [
      ...filesUnder('site', ['.ts', '.tsx', '.astro', '.mjs']),
      path.join(ROOT, 'astro.config.mjs'),
      path.join(ROOT, 'astro.articles.config.mjs'),
    ];
    const imported = new Set([...loadedModules, ...siteFiles].flatMap(packageImports));
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in pkg.dependencies))).toEqual([]);
  });
});

// ---- deploy/compose.yaml ------------------------------------------------------------------------

interface ComposeService {
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}
const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  configs: Record<string, { content: string }>;
};
const APP_SERVICES = ['api1', 'api2', 'worker'];
const app = (name: string) => compose.services[name]!;

/**
 * Compose's interpolation as the file uses it: `${NAME:-default}` (the default may nest),
 * `${NAME:?message}` (refuses an unset or empty NAME), `$$`. Other forms fail here.
 */
function interpolate(text: string, env: Record<string, string>): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    if (text.startsWith('$$', i)) {
      out += '$';
      i += 2;
    } else if (text.startsWith('${', i)) {
      let end = i + 2;
      for (let depth = 1; depth > 0; end += 1) {
        if (end >= text.length) throw new Error(`unclosed \${ in ${text}`);
        depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
      }
      const body = text.slice(i + 2, end - 1);
      const match = /^([A-Za-z_]\w*)(?::([-?])([\s\S]*))?$/.exec(body);
      if (!match) throw new Error(`an interpolation this test does not read: \${${body}}`);
      const [, name, op, arg = ''] = match;
      const value = env[name!] ?? '';
      if (op === '?' && !value) throw new Error(`${name} is required: ${arg}`);
      out += op === '-' && !value ? interpolate(arg, env) : value;
      i = end;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

/** `NAME=value` lines of an env file (single quotes stripped, as Compose does). */
function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [
      m[1]!,
      m[2]!.replace(/^'(.*)'$/, '$1'),
    ]),
  );
}

/** deploy/.env.example with what an operator fills in: every required secret, the fal key. */
const filledEnv: Record<string, string> = {
  ...envFile(read('deploy/.env.example')),
  POSTGRES_PASSWORD: 'c0ffee',
  GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
  SMTP_URL: 'smtps://u:p@smtp.example.com:465',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  S3_SECRET_ACCESS_KEY: 'f00d',
  FAL_KEY: 'key:secret',
  FAL_USER_ID: 'user_ours',
};
const resolvedEnv = (service: string) =>
  Object.fromEntries(
    Object.entries(app(service).environment ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), filledEnv),
    ]),
  );

describe('deploy/compose.yaml', () => {
  it('sets for the API instances and the worker only variables server/config.ts reads', () => {
    for (const service of APP_SERVICES) {
      const names = Object.keys(app(service).environment ?? {});
      expect(names.length, service).toBeGreaterThan(10);
      expect(
        names.filter((name) => !ENV_VARIABLES.includes(name)),
        service,
      ).toEqual([]);
    }
  });

  it('builds deploy/Dockerfile from the repository root', () => {
    for (const service of APP_SERVICES) {
      const build = app(service).build!;
      expect(path.resolve(ROOT, 'deploy', build.context)).toBe(ROOT);
      expect(existsSync(path.join(ROOT, build.dockerfile))).toBe(true);
    }
  });

  it('runs npm start on the API instances and npm run worker in the worker', () => {
    const command = (service: string) => (app(service).command ?? imageCommand).join(' ');
    expect(command('api1')).toBe(pkg.scripts.start);
    expect(command('api2')).toBe(pkg.scripts.start);
    expect(command('worker')).toBe(pkg.scripts.worker);
    for (const script of [pkg.scripts.start!, pkg.scripts.worker!]) {
      expect(existsSync(path.join(ROOT, script.split(' ')[1]!))).toBe(true);
    }
  });

  it('is a configuration production accepts once deploy/.env.example is filled in', () => {
    for (const service of APP_SERVICES) {
      const config = loadConfig(resolvedEnv(service));
      expect(config.isProduction).toBe(true);
      expect(config.scale.s3?.bucket).toBe('veo3');
      expect(config.scale.sitePublish).toBe('s3');
    }
    for (const api of ['api1', 'api2']) {
      const config = loadConfig(resolvedEnv(api));
      expect(config).toMatchObject({ serveSite: true, trustProxy: true });
      expect(config.video.worker).toBe('off');
    }
  });

  it('refuses to start without any variable production requires, naming it', () => {
    let refusal = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      refusal = (error as Error).message;
    }
    const required = [...refusal.matchAll(/^\s+([A-Z][A-Z0-9_]+) \(/gm)].map((m) => m[1]!);
    expect(required).toContain('DATABASE_URL');
    const raw = app('api1').environment!;
    for (const name of required) {
      const needed = /\$\{(\w+):\?/.exec(raw[name] ?? '')?.[1];
      expect(needed, name).toBeDefined();
      const { [needed!]: _dropped, ...rest } = filledEnv;
      expect(() => interpolate(raw[name]!, rest), name).toThrow(needed);
    }
  });

  it('lists every setting it reads in deploy/.env.example', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(strings)
          : [];
    const settings = strings(compose).flatMap((value) =>
      [...value.matchAll(/\$\{(\w+)/g)].map((m) => m[1]!),
    );
    expect(settings).toContain('POSTGRES_PASSWORD');
    const example = read('deploy/.env.example');
    const missing = [...new Set(settings)].filter(
      (name) => !new RegExp(`^#? ?${name}=`, 'm').test(example),
    );
    expect(missing).toEqual([]);
  });

  it("checks the worker's health on its own metrics port", () => {
    const port = resolvedEnv('worker').METRICS_PORT;
    expect(app('worker').healthcheck!.test.join(' ')).toContain(`:${port}/metrics`);
  });
});

// ---- deploy/nginx.conf and the bucket ------------------------------------------------------------

describe('deploy/nginx.conf', () => {
  const nginx = read('deploy/nginx.conf');
  const upstream = (name: string) =>
    [
      ...(new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(nginx)?.[1] ?? '').matchAll(
        /^\s*server\s+(\S+)/gm,
      ),
    ].map((m) => m[1]!);

  it('balances over both API instances on the port the image listens on', () => {
    expect(upstream('veo3_api')).toEqual([`api1:${imageEnv.PORT}`, `api2:${imageEnv.PORT}`]);
  });

  it("serves exactly the bucket's public prefixes from the bucket the apps use, where MEDIA_PUBLIC_URL points", () => {
    const env = resolvedEnv('api1');
    expect(upstream('veo3_bucket')).toEqual([new URL(env.S3_ENDPOINT!).host]);
    const served = [...nginx.matchAll(/proxy_pass http:\/\/veo3_bucket\/([^/]+)\/(\S+);/g)];
    expect(served.map((m) => m[1])).toEqual(served.map(() => env.S3_BUCKET));
    expect(served.map((m) => m[2]).sort()).toEqual(
      [MEDIA_KEYS.media, MEDIA_KEYS.samples, MEDIA_KEYS.blogUploads].sort(),
    );
    expect(new URL(env.MEDIA_PUBLIC_URL!).pathname).toBe('/bucket');
    expect(nginx).toMatch(/location \/bucket\/ \{/);
    expect(app('s3').environment!.S3_BUCKET).toBe(env.S3_BUCKET);
    expect(compose.configs['s3-anonymous-read']!.content).toContain(`"Read:${env.S3_BUCKET}"`);
  });
});

// ---- README ---------------------------------------------------------------------------------------

describe('README "Running on several machines"', () => {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Running on several machines\n');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);

  /** Variables named in backticks (`NAME` or `NAME=value`) or set in its code blocks. */
  const named = new Set([
    ...[...section.matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g)].map((m) => m[1]!),
    ...[...section.matchAll(/^\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!),
    ...[...section.matchAll(/(?:^|\s)([A-Z][A-Z0-9]*_[A-Z0-9_]+)=\S/gm)].map((m) => m[1]!),
  ]);
  /** First-column names of its table. */
  const tabled = [...section.matchAll(/^\|([^|\n]*)\|/gm)].flatMap((row) =>
    [...row[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
  );

  it('exists', () => {
    expect(start).toBeGreaterThan(0);
  });

  it('names only variables server/config.ts reads', () => {
    expect(named.size).toBeGreaterThan(20);
    expect([...named].filter((name) => !ENV_VARIABLES.includes(name))).toEqual([]);
  });

  it('has every variable that matters across machines in its table', () => {
    const relevant = ENV_VARIABLES.filter(
      (name) =>
        /^(S3_|SITE_PUBLISH|METRICS_|MEDIA_|DATABASE_)/.test(name) ||
        ['REDIS_URL', 'SERVE_SITE', 'VIDEO_WORKER'].includes(name),
    );
    expect(relevant.length).toBeGreaterThan(15);
    expect(relevant.filter((name) => !tabled.includes(name))).toEqual([]);
  });
});
