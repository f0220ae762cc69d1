/**
 * Route access: every route Fastify registered declares who may call it, and every route that is
 * not public refuses the wrong caller — anonymous, a signed-in stranger, an editor on admin
 * routes — while the rightful caller gets through. Ids in the URLs belong to another user
 * (the owner), so the same calls check ownership. A failure prints the route table.
 */
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_LEVELS,
  accessPlugin,
  declareScopeAccess,
  type AccessLevel,
  type RouteAccess,
} from '../../server/core/access.ts';
import {
  bearer,
  createTestApp,
  signInAdmin,
  signInLocal,
  TEST_ADMIN,
  type TestApp,
} from '../helpers/app.ts';
import { requestCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, requestGeneration } from '../helpers/video.ts';
import { msg } from '../../server/core/api-messages.ts';
import { writeReceipt } from '../../server/domains/billing/receipts/outbox.ts';
import { receiptEmails } from '../../server/db/schema.ts';
import { eq } from 'drizzle-orm';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The owner's resources that route parameters point at. */
interface OwnerIds {
  userId: string;
  sessionId: string;
  taskId: string;
  postId: string;
  apiKeyId: string;
  webhookId: string;
  /** One of the owner's receipts (issue 37). */
  receiptNumber: string;
}

/** The promotion code the routes' `:code` names. */
const PROMO = 'ACCESS-10';

/** A delivery id nobody has: the resend route must answer 404 to anyone but its owner. */
const NO_DELIVERY = '00000000-0000-4000-8000-000000000000';

/** A receipt of the owner's (as a paid pack writes it), for GET /api/account/receipts/{number}. */
async function ownerReceipt(t: TestApp, userId: string): Promise<string> {
  const db = t.app.database.db;
  await db.transaction((tx) =>
    writeReceipt(tx, {
      kind: 'payment',
      userId,
      checkoutId: 'cs_access_receipt',
      item: { type: 'credits', id: 'starter' },
      amountCents: 1990,
      currency: 'usd',
      discountCents: 0,
      credits: 330,
      creditsBought: 330,
      locale: 'en',
      at: new Date(),
    }),
  );
  const [row] = await db.select().from(receiptEmails).where(eq(receiptEmails.userId, userId));
  return row!.receiptNumber;
}

/** Fills a route's parameters with ids of the owner's resources. */
function fillParams(url: string, ids: OwnerIds): string {
  if (url.includes('*')) throw new Error(`${url}: a wildcard route must be public`);
  return url.replace(/:(\w+)/g, (_, name: string) => {
    switch (name) {
      case 'userId':
        return ids.userId;
      case 'sessionId':
        return ids.sessionId;
      case 'taskId':
        return ids.taskId;
      case 'provider':
        return 'fal';
      case 'receipt_number':
        return ids.receiptNumber;
      case 'code':
        // A promotion code (issue 37; made in beforeAll): quoted for a pack, or the admin's.
        return url.startsWith('/api/stripe/') ? `${PROMO}?type=credits&package_id=starter` : PROMO;
      case 'id':
        if (url.includes('/tasks/') || url.startsWith('/v1/videos/')) return ids.taskId;
        if (url.includes('/webhooks/deliveries/')) return NO_DELIVERY;
        if (url.includes('/webhooks/')) return ids.webhookId;
        if (url.includes('/api-keys/')) return ids.apiKeyId;
        if (url.includes('/posts/')) return ids.postId;
        return ids.userId;
      default:
        throw new Error(`${url}: no fixture for :${name}; add one to tests/api/access.test.ts`);
    }
  });
}

const ownsResource = (url: string) =>
  /:(userId|sessionId|taskId|receipt_number)\b/.test(url) ||
  /\/(webhooks|api-keys|deliveries)\/:id\b/.test(url);

/** Routes × level, for failure messages. */
function routeTable(routes: readonly RouteAccess[]): string {
  const width = Math.max(...routes.map((r) => r.url.length));
  return routes.map((r) => `${r.method.padEnd(7)} ${r.url.padEnd(width)}  ${r.access}`).join('\n');
}

/**
 * Every "METHOD /url" Fastify's router holds, read from its own printout: a radix tree where a
 * route's URL is the concatenation of the segments above it.
 */
function routerRoutes(app: FastifyInstance): string[] {
  const path: string[] = [];
  const found: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    path.length = node[1]!.length / 4;
    path.push(node[2]!);
    for (const method of node[3]?.split(', ') ?? []) found.push(`${method} ${path.join('')}`);
  }
  return found;
}

/** Router routes the access table lacks, i.e. routes that escaped the onRoute hook. */
function undeclaredRouterRoutes(app: FastifyInstance, routes: readonly RouteAccess[]): string[] {
  const declared = new Set(routes.map((r) => `${r.method} ${r.url}`));
  // A plugin's '/' under a prefix becomes '/docs' and '/docs/' from one options object; Fastify
  // runs onRoute for the first only, and the twin shares its declaration and guard.
  return routerRoutes(app).filter((r) => !declared.has(r) && !declared.has(r.replace(/\/$/, '')));
}

interface Refusal {
  route: RouteAccess;
  caller: string;
  expected: string;
  got: LightMyRequestResponse;
}

function refusalReport(refusals: Refusal[], routes: readonly RouteAccess[]): string {
  const rows = refusals.map(
    (r) =>
      `${r.route.method} ${r.route.url} [${r.route.access}] as ${r.caller}: expected ${r.expected}, ` +
      `got ${r.got.statusCode} ${r.got.body.slice(0, 160)}`,
  );
  return `${rows.join('\n')}\n\nRoutes:\n${routeTable(routes)}`;
}

const NON_PUBLIC = (r: RouteAccess) => r.access !== 'public';

function errorBody(res: LightMyRequestResponse): { success?: unknown; code?: unknown } | null {
  try {
    return res.json();
  } catch {
    return null;
  }
}

describe.each(databaseKinds)('route access on %s', (kind) => {
  let t: TestApp;
  let owner: { token: string; user: { id: string; email: string } };
  let stranger: { token: string; user: { id: string; email: string } };
  let editor: { token: string; user: { id: string; email: string } };
  let adminToken: string;
  let ids: OwnerIds;
  let routes: readonly RouteAccess[];

  beforeAll(async () => {
    t = await createTestApp(kind, {
      // The owner's webhook endpoint's host (nothing listens there; no event is sent).
      env: { BLOG_EDITORS: 'eve-editor@example.com', OUTBOUND_ALLOW_HOSTS: '127.0.0.1:9' },
    });
    routes = t.app.routeAccess;
    owner = await signInLocal(t.app, 'olive-owner@example.com', 'Olive Owner');
    stranger = await signInLocal(t.app, 'sam-stranger@example.com', 'Sam Stranger');
    editor = await signInLocal(t.app, 'eve-editor@example.com', 'Eve Editor');
    adminToken = await signInAdmin(t.app);
    const promo = await t.app.inject({
      method: 'POST',
      url: '/api/admin/promotion-codes',
      headers: bearer(adminToken),
      payload: { code: PROMO, percent_off: 10, applies_to: 'all' },
    });
    expect(promo.statusCode, promo.body).toBe(201);

    // The owner's resources: a ledger, a checkout, a video task; and a post by the editor.
    await grantCredits(t, owner.user.id, 17);
    const checkout = await requestCheckout(t.app, owner.token, {
      type: 'credits',
      package_id: 'starter',
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const task = await requestGeneration(t.app, owner.token, {
      prompt: 'a lighthouse at dusk',
      model: 'veo3',
    });
    expect(task.statusCode, task.body).toBe(200);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/blog/admin/posts',
      headers: bearer(editor.token),
      payload: { title: 'Access checks', content: '<p>Who may read what.</p>', status: 'draft' },
    });
    expect(post.statusCode, post.body).toBe(200);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: bearer(owner.token),
      payload: { name: 'access', scopes: ['videos:read'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/account/webhooks',
      headers: bearer(owner.token),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['video.completed'] },
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    ids = {
      userId: owner.user.id,
      sessionId: checkout.json().sessionId,
      taskId: task.json().data.taskId,
      postId: post.json().data.id,
      apiKeyId: key.json().data.id,
      webhookId: webhook.json().data.id,
      receiptNumber: await ownerReceipt(t, owner.user.id),
    };
  });
  afterAll(() => t.close());

  const call = (route: RouteAccess, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: route.method as 'GET',
      url: fillParams(route.url, ids),
      headers,
      ...(WITH_BODY.has(route.method) ? { payload: {} } : {}),
    });

  /** Calls every route `pick` selects as `caller` and returns those not answered as `expect`. */
  async function refusals(
    pick: (r: RouteAccess) => boolean,
    caller: string,
    headers: () => Record<string, string>,
    expected: (r: RouteAccess) => { text: string; ok: (res: LightMyRequestResponse) => boolean },
  ): Promise<Refusal[]> {
    const found: Refusal[] = [];
    for (const route of routes.filter(pick)) {
      const res = await call(route, headers());
      const want = expected(route);
      if (!want.ok(res)) found.push({ route, caller, expected: want.text, got: res });
    }
    return found;
  }

  /** A /v1 refusal: the public API's error shape `{ error: { code, message } }` (issue 36). */
  const refusedV1 = (status: number, code: string) => ({
    text: `${status} ${code} (/v1 shape)`,
    ok: (res: LightMyRequestResponse) => {
      if (res.statusCode !== status || res.body.includes(owner.user.email)) return false;
      if (res.body === '') return true;
      return (errorBody(res) as { error?: { code?: unknown } } | null)?.error?.code === code;
    },
  });

  /** A refusal in the error shape (HEAD answers carry no body) that leaks none of the owner's data. */
  const refused = (statuses: number[], code?: string) => ({
    text: `${statuses.join(' or ')}${code ? ` ${code}` : ''}`,
    ok: (res: LightMyRequestResponse) => {
      if (!statuses.includes(res.statusCode) || res.body.includes(owner.user.email)) return false;
      if (res.body === '') return true;
      const body = errorBody(res);
      return body?.success === false && (!code || body.code === code);
    },
  });

  it('has a declared access level on every route Fastify registered', () => {
    const undeclared = routes.filter((r) => !ACCESS_LEVELS.includes(r.access));
    expect(undeclared, `Undeclared routes:\n${routeTable(routes)}`).toEqual([]);
    // The table comes from an onRoute hook; the router's own list proves none slipped past it.
    expect(routerRoutes(t.app).length).toBeGreaterThanOrEqual(routes.length);
    expect(undeclaredRouterRoutes(t.app, routes), routeTable(routes)).toEqual([]);
    const levels = (access: AccessLevel) => routes.filter((r) => r.access === access).length;
    expect(levels('user'), routeTable(routes)).toBeGreaterThan(0);
    expect(levels('editor'), routeTable(routes)).toBeGreaterThan(0);
    expect(levels('admin'), routeTable(routes)).toBeGreaterThan(0);
  });

  it.each([
    ['GET', '/api/auth/user', 'user'],
    ['POST', '/api/video/generate', 'user'],
    ['GET', '/api/credits/:userId/transactions', 'user'],
    ['POST', '/api/blog/admin/posts', 'editor'],
    ['POST', '/api/credits/add', 'admin'],
    ['GET', '/api/admin/users', 'admin'],
    ['GET', '/api/admin/status', 'admin-password'],
    ['GET', '/api/blog/posts', 'public'],
    ['GET', '/media/:file', 'public'],
    ['GET', '/uploads/blog/:file', 'public'],
    ['GET', '/api/docs/json', 'public'],
  ])('declares %s %s as %s', (method, url, access) => {
    expect(routes).toContainEqual({ method, url, access });
  });

  it('refuses every non-public route to an anonymous caller with a 401', async () => {
    const found = await refusals(
      NON_PUBLIC,
      'anonymous',
      () => ({}),
      (r) =>
        r.access === 'admin-password'
          ? refused([401], 'INVALID_STATUS_PASSWORD')
          : r.access === 'api-key'
            ? refusedV1(401, 'API_KEY_REQUIRED')
            : refused([401], 'SIGN_IN_REQUIRED'),
    );
    expect(found, refusalReport(found, routes)).toEqual([]);
  });

  it('refuses identity headers that claim the owner, signed out or as someone else', async () => {
    const claim = { 'x-user-id': ids.userId };
    const guarded = (r: RouteAccess) => NON_PUBLIC(r) && r.access !== 'admin-password';
    // /v1 reads only an API key: identity headers and session tokens get no further than that.
    const anonymous = await refusals(
      guarded,
      'anonymous claiming the owner',
      () => claim,
      (r) =>
        r.access === 'api-key'
          ? refusedV1(401, 'API_KEY_REQUIRED')
          : refused([403], 'IDENTITY_MISMATCH'),
    );
    const impostor = await refusals(
      guarded,
      'a stranger claiming the owner',
      () => ({ ...bearer(stranger.token), ...claim }),
      (r) =>
        r.access === 'api-key'
          ? refusedV1(401, 'API_KEY_INVALID')
          : refused([403], 'IDENTITY_MISMATCH'),
    );
    const found = [...anonymous, ...impostor];
    expect(found, refusalReport(found, routes)).toEqual([]);
  });

  it("refuses a signed-in stranger on editor and admin routes, and on the owner's resources", async () => {
    const found = await refusals(
      (r) => r.access === 'editor' || r.access === 'admin' || r.access === 'admin-password',
      'a plain user',
      () => bearer(stranger.token),
      (r) => {
        if (r.access === 'editor') return refused([403], 'NOT_EDITOR');
        if (r.access === 'admin') return refused([403], 'ADMIN_REQUIRED');
        return refused([401], 'INVALID_STATUS_PASSWORD');
      },
    );
    // Someone else's id: a 403 or 404, never the data.
    found.push(
      ...(await refusals(
        (r) => r.access === 'user' && ownsResource(r.url),
        'a user who is not the owner',
        () => bearer(stranger.token),
        () => refused([403, 404]),
      )),
    );
    expect(found, refusalReport(found, routes)).toEqual([]);
    expect(routes.filter((r) => r.access === 'user' && ownsResource(r.url)).length).toBeGreaterThan(
      3,
    );
  });

  it("shows a stranger only their own data on the user's GET routes", async () => {
    const found = await refusals(
      (r) => r.access === 'user' && !ownsResource(r.url) && r.method === 'GET',
      'a plain user',
      () => bearer(stranger.token),
      () => ({
        text: "200 without the owner's data",
        ok: (res) =>
          res.statusCode === 200 &&
          !res.body.includes(owner.user.email) &&
          !res.body.includes(ids.taskId) &&
          !res.body.includes(ids.sessionId),
      }),
    );
    expect(found, refusalReport(found, routes)).toEqual([]);
  });

  it('refuses an editor on admin routes', async () => {
    const found = await refusals(
      (r) => r.access === 'admin',
      'an editor',
      () => bearer(editor.token),
      () => refused([403], 'ADMIN_REQUIRED'),
    );
    expect(found, refusalReport(found, routes)).toEqual([]);
  });

  it('lets the rightful caller through on every guarded GET route', async () => {
    const rightful: Record<string, () => Record<string, string>> = {
      user: () => bearer(owner.token),
      editor: () => bearer(editor.token),
      admin: () => bearer(adminToken),
    };
    const found: Refusal[] = [];
    for (const route of routes.filter((r) => r.method === 'GET' && r.access in rightful)) {
      const res = await call(route, rightful[route.access]!());
      const caller = `the rightful ${route.access}`;
      if (res.statusCode !== 200) found.push({ route, caller, expected: '200', got: res });
    }
    expect(found, refusalReport(found, routes)).toEqual([]);
    const status = await t.app.inject({
      url: `/api/admin/status?password=${encodeURIComponent(TEST_ADMIN.password)}`,
    });
    expect(status.statusCode).toBe(200);
  });
});

describe('route access with Stripe configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      env: { STRIPE_SECRET_KEY: 'sk_test_access', STRIPE_WEBHOOK_SECRET: 'whsec_access' },
    });
  });
  afterAll(() => t.close());

  it('declares every route, the webhook as signature-checked', () => {
    const routes = t.app.routeAccess;
    expect(routes.filter((r) => !ACCESS_LEVELS.includes(r.access))).toEqual([]);
    expect(undeclaredRouterRoutes(t.app, routes), routeTable(routes)).toEqual([]);
    expect(routes).toContainEqual({
      method: 'POST',
      url: '/api/stripe/webhook',
      access: 'webhook',
    });
    // No local checkout pages next to a real payment provider.
    expect(routes.filter((r) => r.url.startsWith('/checkout/local'))).toEqual([]);
  });

  it.each([
    ['anonymous', false],
    ['a signed-in user', true],
  ])('refuses an unsigned webhook from %s: a session is no signature', async (_who, signedIn) => {
    const headers = signedIn ? bearer((await signInLocal(t.app, 'hook@example.com')).token) : {};
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'checkout.session.completed' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'SIGNATURE_MISSING' });
  });
});

describe('access declarations at startup', () => {
  const handler = async () => ({ ok: true });

  it('refuse to start with a route that declares no access level, naming it', async () => {
    const app = Fastify();
    await app.register(accessPlugin);
    app.register(async (scope) => {
      scope.post('/api/forgotten', handler);
    });
    await expect(app.ready()).rejects.toThrow(/POST \/api\/forgotten declares no access level/);
  });

  it('refuse an access level that is not one of the known ones', async () => {
    const app = Fastify();
    await app.register(accessPlugin);
    app.register(async (scope) => {
      scope.get('/api/typo', { config: { access: 'users' as AccessLevel } }, handler);
    });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/typo declares no access level/);
  });

  it('guard what they declare, and give plugin routes their scope’s level', async () => {
    const app = Fastify();
    await app.register(accessPlugin);
    app.get('/open', { config: { access: 'public' } }, handler);
    app.get(
      '/mine',
      { config: { access: 'user', signInMessage: msg('video.history_sign_in_required') } },
      handler,
    );
    await app.register(async (scope) => {
      declareScopeAccess(scope, 'public');
      scope.get('/from-a-plugin', handler);
    });
    await app.ready();
    expect((await app.inject({ url: '/open' })).statusCode).toBe(200);
    const mine = await app.inject({ url: '/mine' });
    expect(mine.statusCode).toBe(401);
    expect(mine.json().message).toBe('Please login first');
    expect((await app.inject({ url: '/from-a-plugin' })).statusCode).toBe(200);
    expect(app.routeAccess).toContainEqual({ method: 'HEAD', url: '/mine', access: 'user' });
    expect(app.routeAccess).toContainEqual({
      method: 'GET',
      url: '/from-a-plugin',
      access: 'public',
    });
    await app.close();
  });
});
