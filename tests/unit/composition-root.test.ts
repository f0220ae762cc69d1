/**
 * server/app.ts stays a composition root: it registers the core plugins and one plugin per
 * domain, and holds no routes, rules, SQL or helpers of its own. Each domain plugin is a
 * fastify-plugin that names itself and the plugins it needs, and the app really registers it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const root = path.resolve(import.meta.dirname, '../..');
const appSource = readFileSync(path.join(root, 'server/app.ts'), 'utf8');
const domains = readdirSync(path.join(root, 'server/domains'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

interface PluginMeta {
  name?: string;
  dependencies?: string[];
}

/** The options fastify-plugin keeps on the function it wraps (undefined: not a plugin). */
const metaOf = (value: unknown): PluginMeta | undefined =>
  typeof value === 'function'
    ? (value as unknown as Record<symbol, PluginMeta | undefined>)[Symbol.for('plugin-meta')]
    : undefined;

/** Every fastify-plugin a domain's plugin module exports, by export name. */
async function domainPlugins(domain: string): Promise<[string, PluginMeta][]> {
  const module = (await import(path.join(root, 'server/domains', domain, 'plugin.ts'))) as Record<
    string,
    unknown
  >;
  return Object.entries(module).flatMap(([name, value]) => {
    const meta = metaOf(value);
    return meta ? [[name, meta] as [string, PluginMeta]] : [];
  });
}

describe('server/app.ts, the composition root', () => {
  it('is under 80 lines', () => {
    expect(appSource.split('\n').length).toBeLessThan(80);
  });

  it('declares no routes, handlers, services, SQL or helper functions of its own', () => {
    expect(appSource).not.toMatch(/\bapp\.(get|post|put|patch|delete|head|all|route)\(/);
    expect(appSource).not.toMatch(/\bset(Error|NotFound)Handler\(\s*(async\s*)?\(/);
    expect(appSource).not.toMatch(/\bcreate\w+(Service|Provider|Store|Builder)\(/);
    expect(appSource).not.toMatch(/\bsql`|drizzle|\.select\(|\.insert\(/);
    const functions = [...appSource.matchAll(/^(?:export )?(?:async )?function (\w+)/gm)];
    expect(functions.map((match) => match[1])).toEqual(['buildApp']);
    expect(appSource).not.toMatch(/^class /m);
  });

  it("imports nothing from a domain but the domain's plugin module, and every domain's", () => {
    const targets = [...appSource.matchAll(/from '\.\/domains\/([^']+)'/g)].map((m) => m[1]!);
    expect(targets.filter((target) => !/^[\w-]+\/plugin\.ts$/.test(target))).toEqual([]);
    expect(new Set(targets.map((target) => target.split('/')[0]))).toEqual(new Set(domains));
  });

  it.each(domains)(
    'the %s plugin module exports fastify-plugins with a name and their dependencies',
    async (domain) => {
      const plugins = await domainPlugins(domain);
      expect(plugins.length).toBeGreaterThan(0);
      // The domain's own plugin carries the domain's name.
      expect(plugins.map(([, meta]) => meta.name)).toContain(domain);
      for (const [exportName, meta] of plugins) {
        expect(meta.name, exportName).toMatch(/^[a-z-]+$/);
        expect(meta.dependencies, exportName).toEqual(expect.arrayContaining([expect.any(String)]));
        expect(appSource, exportName).toMatch(new RegExp(`app\\.register\\(${exportName}\\b`));
      }
    },
  );
});

describe('buildApp', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers every domain plugin (and Fastify checked each one’s dependencies first)', async () => {
    const names = (await Promise.all(domains.map(domainPlugins))).flat().map(([, m]) => m.name!);
    expect(names.filter((name) => !t.app.hasPlugin(name))).toEqual([]);
  });
});
