import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { applyCreditChange } from '../../server/domains/credits/service.ts';
import * as adminRepo from '../../server/domains/admin/repository.ts';
import { failureMessage } from '../../server/domains/video/messages.ts';
import { recordProviderFinished, recordSubmit } from '../../server/domains/video/repository.ts';
import { failAndRefund } from '../../server/domains/video/service.ts';
import { videoTasks } from '../../server/db/schema.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits } from '../helpers/video.ts';

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every admin route but `status`, with a request that would otherwise succeed. */
const ADMIN_ROUTES: Array<[method: 'GET' | 'POST', url: string, payload?: object]> = [
  ['GET', '/api/admin/me'],
  ['GET', '/api/admin/test'],
  ['GET', '/api/admin/overview'],
  ['GET', '/api/admin/users'],
  ['GET', `/api/admin/users/${SOME_ID}`],
  ['GET', `/api/admin/users/${SOME_ID}/transactions`],
  ['GET', '/api/admin/tasks'],
  ['GET', '/api/admin/payments'],
  ['GET', '/api/admin/webhooks'],
  ['GET', '/api/admin/actions'],
  ['POST', `/api/admin/users/${SOME_ID}/credits`, { amount: 10, reason: 'Goodwill' }],
  ['POST', `/api/admin/users/${SOME_ID}/blog-access`, { canManageBlog: true }],
  ['POST', `/api/admin/tasks/${SOME_ID}/refund`],
  ['POST', '/api/auth/admin-logout'],
  // The credits calls of spec 7 are administrators' too.
  [
    'POST',
    '/api/credits/add',
    { userId: SOME_ID, amount: 1, sourceType: 'gift', sourceId: 'x', description: '' },
  ],
  [
    'POST',
    '/api/credits/deduct',
    { userId: SOME_ID, amount: 1, sourceType: 'gift', sourceId: 'y', description: '' },
  ],
  ['POST', `/api/credits/validate/${SOME_ID}`],
];

describe.each(databaseKinds)('admin API on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let ann: { token: string; user: { id: string; email: string } };
  let bob: { token: string; user: { id: string; email: string } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await signInAdmin(t.app);
    ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
    bob = await signInLocal(t.app, 'bob@example.com', 'Bob');
  });
  afterAll(() => t.close());

  const asAdmin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(adminToken), ...(payload ? { payload } : {}) });

  const ledgerRows = (userId: string) =>
    queryRows<{ amount: number; source_type: string }>(
      t.database.db,
      sql`select amount, source_type from credit_transactions where user_id = ${userId}`,
    );
  const auditRows = () =>
    queryRows<{ action: string; admin_username: string; target_user_id: string | null }>(
      t.database.db,
      sql`select action, admin_username, target_user_id from admin_actions order by created_at`,
    );

  /** A task as the video domain leaves it: charged, then failed (refunded or not). */
  async function failedTask(userId: string, opts: { refunded: boolean }) {
    await grantCredits(t, userId, 17);
    const id = randomUUID();
    await t.database.db.transaction(async (tx) => {
      await applyCreditChange(tx, {
        userId,
        amount: -17,
        sourceType: 'video_task',
        sourceId: id,
        description: 'video',
      });
      await tx.insert(videoTasks).values({
        id,
        userId,
        model: 'veo3',
        mode: 'text',
        prompt: 'A lighthouse at dawn',
        provider: 'local',
        status: 'processing',
        deadlineAt: new Date(Date.now() + 60_000),
        creditsCharged: 17,
      });
    });
    if (opts.refunded) {
      await t.database.db.transaction((tx) => failAndRefund(tx, id, 'The renderer crashed.'));
    } else {
      // A task failed without its refund (e.g. marked failed by hand after an outage).
      await t.database.db.execute(
        sql`update video_tasks set status = 'failed', error_message = 'Provider outage' where id = ${id}`,
      );
    }
    return id;
  }

  describe('guards', () => {
    it.each(ADMIN_ROUTES)('%s %s refuses anonymous callers (401)', async (method, url, payload) => {
      const res = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode).toBe(401);
    });

    it.each(ADMIN_ROUTES)(
      '%s %s refuses a customer session (403)',
      async (method, url, payload) => {
        const res = await t.app.inject({
          method,
          url,
          headers: bearer(ann.token),
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('ADMIN_REQUIRED');
      },
    );
  });

  describe('users', () => {
    it('lists customers newest first and searches by a part of the email', async () => {
      const all = await asAdmin('GET', '/api/admin/users');
      expect(all.json().data.total).toBe(2);
      expect(all.json().data.users.map((u: { email: string }) => u.email)).toEqual([
        'bob@example.com',
        'ann@example.com',
      ]);
      const found = await asAdmin('GET', '/api/admin/users?q=ANN@');
      expect(found.json().data).toMatchObject({ total: 1, users: [{ email: 'ann@example.com' }] });
      // LIKE wildcards are searched for as text.
      const wildcard = await asAdmin('GET', '/api/admin/users?q=%25%25%25');
      expect(wildcard.json().data).toEqual({
        users: [],
        total: 0,
        total_exact: true,
        next_cursor: null,
        has_more: false,
      });
      const paged = await asAdmin('GET', '/api/admin/users?limit=1&offset=1');
      expect(paged.json().data.users).toHaveLength(1);
      expect(paged.json().data.total).toBe(2);
    });

    it('shows one customer with subscription, ledger and tasks; 404 for an unknown id', async () => {
      const detail = await asAdmin('GET', `/api/admin/users/${bob.user.id}`);
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data).toMatchObject({
        user: { id: bob.user.id, email: 'bob@example.com', credits: 0, can_manage_blog: false },
        subscription: null,
        transactions: [],
        tasks: [],
      });
      expect((await asAdmin('GET', `/api/admin/users/${SOME_ID}`)).statusCode).toBe(404);
    });

    it('validates ids, paging and filters (400)', async () => {
      for (const url of [
        '/api/admin/users/not-a-uuid',
        '/api/admin/users?limit=0',
        '/api/admin/users?limit=101',
        '/api/admin/tasks?status=exploded',
        '/api/admin/payments?offset=-1',
      ]) {
        expect((await asAdmin('GET', url)).statusCode, url).toBe(400);
      }
    });
  });

  describe('credit adjustments', () => {
    it('gives credits with a reason: one ledger row and one audit row', async () => {
      const res = await asAdmin('POST', `/api/admin/users/${ann.user.id}/credits`, {
        amount: 50,
        reason: 'Goodwill after an outage',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        user: { id: ann.user.id, credits: 50 },
        transaction: {
          amount: 50,
          balance_after: 50,
          source_type: 'admin_adjustment',
          description: 'Goodwill after an outage',
        },
      });
      expect(await ledgerRows(ann.user.id)).toEqual([
        { amount: 50, source_type: 'admin_adjustment' },
      ]);
      const actions = await asAdmin('GET', '/api/admin/actions');
      expect(actions.json().data.actions[0]).toMatchObject({
        admin: 'ops',
        action: 'credits.adjust',
        target_user_id: ann.user.id,
        target_id: res.json().data.transaction.id,
        details: { amount: 50, reason: 'Goodwill after an outage', balance_after: 50 },
      });
      // The customer sees the new balance.
      const balance = await t.app.inject({
        url: '/api/credits/balance',
        headers: bearer(ann.token),
      });
      expect(balance.json().data.total_credits).toBe(50);
    });

    it('refuses to take the balance below zero (409) and writes nothing', async () => {
      const before = (await auditRows()).length;
      const res = await asAdmin('POST', `/api/admin/users/${ann.user.id}/credits`, {
        amount: -51,
        reason: 'Correction',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        success: false,
        message: 'This would take the balance below zero (balance 50).',
        code: 'WOULD_OVERDRAW',
      });
      expect(await ledgerRows(ann.user.id)).toHaveLength(1);
      expect(await auditRows()).toHaveLength(before);
      const taken = await asAdmin('POST', `/api/admin/users/${ann.user.id}/credits`, {
        amount: -50,
        reason: 'Correction',
      });
      expect(taken.json().data.user.credits).toBe(0);
    });

    it('writes the ledger row and the audit row in one transaction (no audit, no credits)', async () => {
      const spy = vi.spyOn(adminRepo, 'insertAction').mockRejectedValueOnce(new Error('disk full'));
      try {
        const res = await asAdmin('POST', `/api/admin/users/${bob.user.id}/credits`, {
          amount: 30,
          reason: 'Should roll back',
        });
        expect(res.statusCode).toBe(500);
      } finally {
        spy.mockRestore();
      }
      expect(await ledgerRows(bob.user.id)).toEqual([]);
      const detail = await asAdmin('GET', `/api/admin/users/${bob.user.id}`);
      expect(detail.json().data.user.credits).toBe(0);
    });

    it.each([
      [{ amount: 0, reason: 'Nothing' }],
      [{ amount: 1_000_001, reason: 'Too much' }],
      [{ amount: 1.5, reason: 'Fractional' }],
      [{ amount: 10, reason: 'ab' }],
      [{ amount: 10, reason: 'x'.repeat(201) }],
      [{ amount: 10 }],
      [{ amount: 10, reason: 'Extra field', sourceType: 'gift' }],
    ])('refuses a malformed adjustment %j (400)', async (payload) => {
      const res = await asAdmin('POST', `/api/admin/users/${bob.user.id}/credits`, payload);
      expect(res.statusCode).toBe(400);
    });

    it('answers 404 for an unknown customer', async () => {
      const res = await asAdmin('POST', `/api/admin/users/${SOME_ID}/credits`, {
        amount: 5,
        reason: 'Nobody',
      });
      expect(res.statusCode).toBe(404);
    });

    it('keeps the spec 7 credits calls working for an admin session', async () => {
      const res = await asAdmin('POST', '/api/credits/add', {
        userId: bob.user.id,
        amount: 5,
        sourceType: 'gift',
        sourceId: 'admin-session',
        description: 'Spec call',
      });
      expect(res.statusCode).toBe(200);
      const validate = await asAdmin('POST', `/api/credits/validate/${bob.user.id}`);
      expect(validate.json().data).toMatchObject({ balance: 5, valid: true });
    });
  });

  describe('blog access', () => {
    it('grants and revokes the blog right, each audited with the previous value', async () => {
      const grant = await asAdmin('POST', `/api/admin/users/${bob.user.id}/blog-access`, {
        canManageBlog: true,
      });
      expect(grant.json().data.user).toMatchObject({ id: bob.user.id, can_manage_blog: true });
      const me = await t.app.inject({ url: '/api/auth/user', headers: bearer(bob.token) });
      expect(me.json().data.user.can_manage_blog).toBe(true);

      const revoke = await asAdmin('POST', `/api/admin/users/${bob.user.id}/blog-access`, {
        canManageBlog: false,
      });
      expect(revoke.json().data.user.can_manage_blog).toBe(false);
      const actions = (await asAdmin('GET', '/api/admin/actions?limit=2')).json().data.actions;
      expect(actions).toMatchObject([
        { action: 'blog_access.revoke', details: { can_manage_blog: false, previous: true } },
        { action: 'blog_access.grant', details: { can_manage_blog: true, previous: false } },
      ]);
    });
  });

  describe('refunds', () => {
    it('refunds a failed, unrefunded task once; the second try is a 409', async () => {
      const taskId = await failedTask(bob.user.id, { refunded: false });
      const before = (await asAdmin('GET', `/api/admin/users/${bob.user.id}`)).json().data.user
        .credits;
      const listed = await asAdmin('GET', '/api/admin/tasks?status=failed');
      expect(listed.json().data.tasks).toContainEqual(
        expect.objectContaining({ id: taskId, refunded: false, credits_cost: 17 }),
      );

      const first = await asAdmin('POST', `/api/admin/tasks/${taskId}/refund`);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({
        task: { id: taskId, status: 'failed', refunded: true, user_email: 'bob@example.com' },
        transaction: { amount: 17, source_type: 'refund', source_id: taskId },
      });
      // A task no provider took still answers its (empty) provider record.
      expect(first.json().data.task).toMatchObject({
        provider: 'local',
        provider_model: null,
        provider_request_id: null,
        attempts: 0,
        submitted_at: null,
        provider_cost_usd: null,
        provider_error: null,
        route_attempts: [],
      });
      expect(first.json().data.transaction.balance_after).toBe(before + 17);

      const second = await asAdmin('POST', `/api/admin/tasks/${taskId}/refund`);
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('ALREADY_REFUNDED');
      const refunds = (await ledgerRows(bob.user.id)).filter((r) => r.source_type === 'refund');
      expect(refunds).toHaveLength(1);
      expect((await auditRows()).filter((a) => a.action === 'task.refund')).toHaveLength(1);
    });

    it('refuses a task the worker already refunded (409), a task that did not fail (409), an unknown one (404)', async () => {
      const refunded = await failedTask(ann.user.id, { refunded: true });
      const res = await asAdmin('POST', `/api/admin/tasks/${refunded}/refund`);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('ALREADY_REFUNDED');

      const running = await failedTask(ann.user.id, { refunded: false });
      await t.database.db.execute(
        sql`update video_tasks set status = 'completed' where id = ${running}`,
      );
      const notFailed = await asAdmin('POST', `/api/admin/tasks/${running}/refund`);
      expect(notFailed.statusCode).toBe(409);
      expect(notFailed.json()).toMatchObject({
        code: 'TASK_NOT_REFUNDABLE',
        message: 'Only a failed task can be refunded; this one is completed.',
      });

      expect((await asAdmin('POST', `/api/admin/tasks/${SOME_ID}/refund`)).statusCode).toBe(404);
    });

    it('refunds once when two refunds race', async () => {
      const taskId = await failedTask(ann.user.id, { refunded: false });
      const codes = (
        await Promise.all([
          asAdmin('POST', `/api/admin/tasks/${taskId}/refund`),
          asAdmin('POST', `/api/admin/tasks/${taskId}/refund`),
        ])
      )
        .map((r) => r.statusCode)
        .sort();
      expect(codes).toEqual([200, 409]);
    });
  });

  describe('task provider record', () => {
    /** The provider's own words: the operator may read them, the customer never. */
    const PROVIDER_TEXT = 'NSFW content detected by safety_checker v2 (trace 7f3a9c)';

    /** A task as the worker leaves it: fal answered 429, replicate took it, then refused it. */
    async function providerTask(userId: string) {
      const id = randomUUID();
      const db = t.database.db;
      await db.insert(videoTasks).values({
        id,
        userId,
        model: 'veo3',
        mode: 'text',
        prompt: 'A fox in the snow',
        provider: 'fal',
        deadlineAt: new Date(Date.now() + 60_000),
        creditsCharged: 17,
      });
      const at = new Date().toISOString();
      await recordSubmit(db, id, {
        provider: 'fal',
        model: 'fal-ai/veo3.1',
        at,
        outcome: 'rate_limited',
        status: 429,
      });
      await recordSubmit(
        db,
        id,
        { provider: 'replicate', model: 'google/veo-3.1', at, outcome: 'accepted' },
        { jobId: '{"id":"r8_job42"}', requestId: 'r8_job42' },
      );
      await recordProviderFinished(db, id, { costUsd: 0.4, error: PROVIDER_TEXT });
      await db.transaction((tx) =>
        failAndRefund(tx, id, failureMessage('content_policy'), {
          failureKind: 'content_policy',
          providerError: PROVIDER_TEXT,
        }),
      );
      return id;
    }

    it('lists the provider, model, request id, attempts, timings, cost and error', async () => {
      const id = await providerTask(ann.user.id);
      const listed = await asAdmin('GET', '/api/admin/tasks?status=failed');
      expect(listed.statusCode).toBe(200);
      const task = listed.json().data.tasks.find((row: { id: string }) => row.id === id);
      expect(task).toMatchObject({
        status: 'failed',
        provider: 'replicate',
        provider_model: 'google/veo-3.1',
        provider_request_id: 'r8_job42',
        attempts: 2,
        provider_cost_usd: 0.4,
        provider_error: PROVIDER_TEXT,
        failure_kind: 'content_policy',
        error: failureMessage('content_policy')(17).render('en'),
        route_attempts: [
          { provider: 'fal', model: 'fal-ai/veo3.1', outcome: 'rate_limited', status: 429 },
          // An attempt stored without a status answers null, not a missing field.
          { provider: 'replicate', model: 'google/veo-3.1', outcome: 'accepted', status: null },
        ],
      });
      for (const at of [task.submitted_at, task.provider_finished_at]) {
        expect(new Date(at).toISOString()).toBe(at);
      }
      expect(task.provider_finished_at >= task.submitted_at).toBe(true);

      // The user's panel lists the same record.
      const detail = await asAdmin('GET', `/api/admin/users/${ann.user.id}`);
      expect(detail.json().data.tasks).toContainEqual(task);
    });

    it("never shows the provider's error text to the customer", async () => {
      const id = await providerTask(ann.user.id);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/video/status/${id}`,
        headers: bearer(ann.token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id,
        status: 'failed',
        error_message: failureMessage('content_policy')(17).render('en'),
      });
      expect(res.body).not.toContain(PROVIDER_TEXT);
      expect(res.body).not.toContain('safety_checker');
    });
  });

  describe('views', () => {
    it('overview counts customers, tasks, payments, webhooks and the build', async () => {
      const res = await asAdmin('GET', '/api/admin/overview');
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.users).toBe(2);
      expect(data.tasks.failed).toBeGreaterThanOrEqual(3);
      expect(data.payments).toEqual({ paid: 0, revenueCents: {} });
      expect(data.webhooksLast24h).toBe(0);
      expect(data.build).toMatchObject({ state: 'idle', liveRelease: null, lastError: null });
    });

    it('lists payments and webhook events without payloads', async () => {
      const checkout = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/create-payment-intent',
        headers: bearer(ann.token),
        payload: {
          type: 'credits',
          package_id: 'starter',
          success_url: 'http://localhost:4321/pricing?paid=1',
          cancel_url: 'http://localhost:4321/pricing',
        },
      });
      expect(checkout.statusCode).toBe(200);
      const payments = (await asAdmin('GET', '/api/admin/payments')).json().data;
      expect(payments.total).toBe(1);
      expect(payments.payments[0]).toMatchObject({
        user_id: ann.user.id,
        user_email: 'ann@example.com',
        kind: 'pack',
        item_id: 'starter',
        provider: 'local',
        status: 'open',
      });
      await t.database.db.execute(
        sql`insert into webhook_events (id, provider, type, handled, payload)
            values ('evt_1', 'stripe', 'checkout.session.completed', true, '{"secret":"card"}')`,
      );
      const events = (await asAdmin('GET', '/api/admin/webhooks')).json().data;
      expect(events).toMatchObject({
        total: 1,
        events: [{ id: 'evt_1', type: 'checkout.session.completed', processed: true }],
      });
      expect(JSON.stringify(events)).not.toContain('card');
    });

    it("pages a customer's ledger", async () => {
      const res = await asAdmin('GET', `/api/admin/users/${ann.user.id}/transactions?limit=2`);
      expect(res.json().data.transactions).toHaveLength(2);
      expect(res.json().data.total).toBeGreaterThan(2);
    });
  });
});
