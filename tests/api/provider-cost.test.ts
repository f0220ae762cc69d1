/**
 * The operator's cost of each video (issue 37, items 4 to 6), on PGlite and PostgreSQL: every
 * hosted provider's fake, driven by the real worker, leaves the table's cost on a finished task
 * (0 on a job the provider failed: none of them bills one); VIDEO_ROUTE_POLICY=cheapest sends a
 * job to the cheapest entry that can make it, equal costs to the provider faster over the last hour; VIDEO_MAX_COST_USD refuses a request no entry can
 * make for that much before any charge, and the worker skips entries above it; the admin card's
 * loss flag against a hand-computed figure.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { providerOverview } from '../../server/domains/video/service.ts';
import type { VideoProvider } from '../../server/domains/video/providers/types.ts';
import { startFalFake } from '../fakes/fal/index.ts';
import { startGeminiFake } from '../fakes/gemini/index.ts';
import { startReplicateFake } from '../fakes/replicate/index.ts';
import { startVertexFake } from '../fakes/vertex/index.ts';
import type { VideoProviderFake } from '../fakes/video/control.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import { captureLogEntries } from '../helpers/logs.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  requestGeneration,
  testWorker,
} from '../helpers/video.ts';

/**
 * An 8-second default video at each fake's text model, by hand from content/provider-costs.json:
 * $0.40/s × 8 on the Veo 3.1 standard models, $0.07/s × 8 on gemini-omni-1.2-flash.
 */
const EXPECTED_COST: Record<string, number> = {
  fal: 3.2,
  replicate: 3.2,
  vertex: 3.2,
  gemini: 0.56,
};

const FAKES: Record<string, () => Promise<VideoProviderFake>> = {
  fal: () => startFalFake(),
  replicate: () => startReplicateFake(),
  vertex: () => startVertexFake(),
  gemini: () => startGeminiFake(),
};

describe.each(databaseKinds)('provider cost on %s', (kind) => {
  let t: TestApp;
  let seq = 0;
  const fakes: VideoProviderFake[] = [];
  const logs = captureLogEntries();
  beforeAll(async () => {
    t = await createTestApp(kind, {
      deps: { logStream: logs.stream },
      env: {
        LOG_LEVEL: 'warn',
        VIDEO_WORKER: 'off',
        // Only the generate route reads these (workers below get their own routes): Omni makes
        // the default video for $0.56; fal is $3.20 at the standard tier, $1.20 fast.
        VIDEO_ROUTE_TEXT: 'gemini:gemini-omni-1.2-flash,fal:fal-ai/veo3.1',
        GEMINI_API_KEY: 'test-key',
        FAL_KEY: 'test-key:secret',
        VIDEO_MAX_COST_USD: '1.5',
      },
    });
  }, 30_000);
  afterAll(async () => {
    await expectCreditsInvariant(t.database.db);
    await t?.close();
    await Promise.all(fakes.map((f) => f.close()));
  });

  async function customer() {
    const user = await signInLocal(t.app, `cost-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 100);
    return user;
  }

  const generate = async (token: string, fields: Record<string, string>) =>
    requestGeneration(t.app, token, { model: 'veo3', ...fields });

  async function task(id: string) {
    const rows = await queryRows<{ status: string; provider: string; cost: number | null }>(
      t.database.db,
      sql`select status, provider, provider_cost_usd::float8 as cost
          from video_tasks where id = ${id}`,
    );
    return rows[0]!;
  }

  /** Submits and runs to the end on `providers` with `route`; the task row after. */
  async function run(
    providers: VideoProvider[],
    route: Array<{ provider: string; model: string }>,
    fields: Record<string, string>,
    routing?: { policy: 'ordered' | 'cheapest'; maxCostUsd: number | null },
  ) {
    const user = await customer();
    const res = await generate(user.token, fields);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.taskId as string;
    const worker = testWorker(t, {
      providers: Object.fromEntries(providers.map((p) => [p.name, p])),
      routes: { text: route, image: route },
      ...(routing ? { routing } : {}),
    });
    await drainQueue(t.database.db, worker);
    return task(id);
  }

  it.each(Object.keys(FAKES))(
    'records the cost of a %s job: the table price when it succeeds, 0 when it fails',
    async (name) => {
      const fake = await FAKES[name]!();
      fakes.push(fake);
      fake.pollsUntilDone = 1;
      const adapter = fake.createAdapter();
      const route = [{ provider: name, model: fake.models.text }];
      const ok = await run([adapter], route, { prompt: `a harbour ${seq}` });
      expect(ok.status).toBe('completed');
      expect(ok.cost).toBeCloseTo(EXPECTED_COST[name]!, 6);
      const bad = await run([adapter], route, { prompt: `[fail] a harbour ${seq}` });
      expect(bad).toMatchObject({ status: 'failed', cost: 0 });
    },
    30_000,
  );

  it('cheapest: the cheapest capable entry goes first, an incapable one is passed over', async () => {
    const fal = fakeProvider({ name: 'fal', polls: 1 });
    const vertex = fakeProvider({ name: 'vertex', polls: 1 });
    const gemini = fakeProvider({ name: 'gemini', polls: 1 });
    const route = [
      { provider: 'fal', model: 'fal-ai/veo3.1' },
      { provider: 'vertex', model: 'veo-3.1-generate-001' },
      { provider: 'gemini', model: 'gemini-omni-1.2-flash' },
    ];
    const cheapest = { policy: 'cheapest' as const, maxCostUsd: null };
    const providers = [fal, vertex, gemini];
    // The default video: Omni ($0.56), last in the route, goes first.
    const first = await run(providers, route, { prompt: 'cheap one' }, cheapest);
    expect(first).toMatchObject({ status: 'completed', provider: 'gemini', cost: 0.56 });
    expect(fal.submits.size + vertex.submits.size).toBe(0);
    // A negative prompt at the fast tier: Omni cannot take one (nor the fast tier), so fal and
    // Vertex tie at $1.20. Vertex's videos took 300 s over the last hour, fal's 10 s: fal first.
    for (const [provider, seconds] of [
      ['vertex', 300],
      ['fal', 10],
    ] as const) {
      await t.database.db.execute(
        sql`update video_tasks set created_at = completed_at - make_interval(secs => ${seconds})
            where provider = ${provider} and status = 'completed'`,
      );
    }
    const second = await run(
      providers,
      [route[2]!, route[1]!, route[0]!],
      { prompt: 'no gulls', negative_prompt: 'gulls', tier: 'fast' },
      cheapest,
    );
    expect(second).toMatchObject({ status: 'completed', provider: 'fal', cost: 1.2 });
    expect(gemini.submits.has('no gulls')).toBe(false);
    expect(vertex.submits.size).toBe(0);
  });

  it('ordered (the default): the route as written, cheaper entries after it', async () => {
    const fal = fakeProvider({ name: 'fal', polls: 1 });
    const gemini = fakeProvider({ name: 'gemini', polls: 1 });
    const route = [
      { provider: 'fal', model: 'fal-ai/veo3.1' },
      { provider: 'gemini', model: 'gemini-omni-1.2-flash' },
    ];
    const ordered = await run([fal, gemini], route, { prompt: 'ordered' });
    expect(ordered.provider).toBe('fal');
    expect(gemini.submits.size).toBe(0);
  });

  it('VIDEO_MAX_COST_USD: the worker skips entries above the cap', async () => {
    const fal = fakeProvider({ name: 'fal', polls: 1 });
    const vertex = fakeProvider({ name: 'vertex', polls: 1 });
    const route = [
      { provider: 'fal', model: 'fal-ai/veo3.1' },
      { provider: 'vertex', model: 'veo-3.1-lite-generate-001' },
    ];
    const capped = { policy: 'ordered' as const, maxCostUsd: 1 };
    // The default video: fal $3.20 > $1; Vertex Lite 8 × $0.05 = $0.40.
    const res = await run([fal, vertex], route, { prompt: 'capped' }, capped);
    expect(res).toMatchObject({ status: 'completed', provider: 'vertex', cost: 0.4 });
    expect(fal.submits.size).toBe(0);
  });

  it('VIDEO_MAX_COST_USD: a request no entry makes for that much is a 400 before any charge', async () => {
    const user = await customer();
    const before = await t.app.inject({ url: '/api/credits/balance', headers: bearer(user.token) });
    // A negative prompt: Omni cannot take one, fal can for $3.20 (> $1.50) at the standard tier.
    const dear = { prompt: 'too dear', negative_prompt: 'gulls' };
    const res = await generate(user.token, dear);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'COST_LIMIT_EXCEEDED' });
    expect(res.json().message).toContain('$1.50');
    const zh = await requestGeneration(t.app, user.token, { ...dear, model: 'veo3' }, undefined, {
      'accept-language': 'zh-CN',
    });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().message).toContain('成本上限');
    const after = await t.app.inject({ url: '/api/credits/balance', headers: bearer(user.token) });
    expect(after.json()).toEqual(before.json());
    const quote = (q: string) => t.app.inject({ url: `/api/video/quote?model=veo3&${q}` });
    expect((await quote('negative_prompt=gulls')).statusCode).toBe(400);
    // At the fast tier fal makes it for $1.20.
    expect((await quote('negative_prompt=gulls&tier=fast')).statusCode).toBe(200);
  });

  it('warns at start-up of each route entry whose default video loses money', () => {
    // Omni: 8 × $0.07 = $0.56 − $0.403140 = $0.156860 → "$0.16".
    expect(logs.lines.map((l) => l.msg).filter((m) => String(m).includes('loses'))).toEqual([
      'video route entry gemini:gemini-omni-1.2-flash loses $0.16 per video at Pro+ yearly prices',
      'video route entry fal:fal-ai/veo3.1 loses $2.80 per video at Pro+ yearly prices',
    ]);
  });

  it('flags a route entry whose default video loses money, by the hand-computed figure', async () => {
    // Pro+ yearly: $959 for 12 × 3370 credits = $0.023714/credit; 17 credits = $0.403140.
    // fal-ai/veo3.1: 8 s × $0.40 = $3.20, so it loses $2.796860 → "$2.80". Lite: 8 × $0.05 =
    // $0.40 < $0.403140: no flag.
    const rows = await providerOverview(t.database.db, {
      text: [
        { provider: 'vertex', model: 'veo-3.1-lite-generate-001' },
        { provider: 'fal', model: 'fal-ai/veo3.1' },
      ],
      image: [{ provider: 'fal', model: 'fal-ai/veo3.1/fast/image-to-video' }],
    });
    const byName = Object.fromEntries(rows.map((r) => [r.provider, r.losses]));
    expect(byName.fal).toEqual([
      'text #2: fal-ai/veo3.1 loses $2.80 per video at Pro+ yearly prices',
      'image #1: fal-ai/veo3.1/fast/image-to-video loses $0.80 per video at Pro+ yearly prices',
    ]);
    expect(byName.vertex).toEqual([]);
  });
});
