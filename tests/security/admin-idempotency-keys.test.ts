/**
 * Finding 14 (issue 16), admin idempotency keys: an admin's grant or deduction is idempotent on
 * its key (sourceType + sourceId), but the key was unique across the whole ledger, so admin A's
 * key on user X made admin B's same key on user Y a silent no-op that answered with X's row. A
 * key is scoped to the acting admin and the target user; the same key again with another amount
 * is refused. Both ways in: POST /api/credits/add|deduct and the dashboard's adjustment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import {
  bearer,
  createTestApp,
  creditBalance,
  makeAdmin,
  signInAdmin,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

type Person = { token: string; user: { id: string } };

describe.each(databaseKinds)('admin idempotency keys on %s', (kind) => {
  let t: TestApp;
  let adminA: string;
  let adminB: string;
  let ann: Person;
  let bob: Person;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminA = await signInAdmin(t.app);
    adminB = (await signInLocal(t.app, 'boss@example.com', 'Boss')).token;
    await makeAdmin(t, adminB);
    ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
    bob = await signInLocal(t.app, 'bob@example.com', 'Bob');
  });
  afterAll(() => t.close());

  const change = (
    direction: 'add' | 'deduct',
    admin: string,
    user: Person,
    sourceId: string,
    amount: number,
    sourceType = 'gift',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/credits/${direction}`,
      headers: bearer(admin),
      payload: { userId: user.user.id, amount, sourceType, sourceId, description: 'Key test' },
    });
  const adjust = (admin: string, user: Person, amount: number, idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.user.id}/credits`,
      headers: bearer(admin),
      payload: { amount, reason: 'Key test', ...(idempotencyKey ? { idempotencyKey } : {}) },
    });
  const balances = async () => [
    await creditBalance(t.app, ann.token),
    await creditBalance(t.app, bob.token),
  ];

  describe('POST /api/credits/add and /deduct', () => {
    it("applies admin B's key on another user although admin A used it, and never answers with A's row", async () => {
      const before = await balances();
      const first = await change('add', adminA, ann, 'shared-key', 100);
      const second = await change('add', adminB, bob, 'shared-key', 50);
      expect(first.statusCode).toBe(200);
      expect(second.statusCode).toBe(200);
      expect(second.json().data).toMatchObject({ duplicate: false, balance: before[1]! + 50 });
      expect(second.json().data.transaction.id).not.toBe(first.json().data.transaction.id);
      expect(await balances()).toEqual([before[0]! + 100, before[1]! + 50]);
    });

    it('scopes a key to the target too: one admin, one key, two users, two grants', async () => {
      const before = await balances();
      expect((await change('add', adminA, ann, 'per-user', 10)).json().data.duplicate).toBe(false);
      expect((await change('add', adminA, bob, 'per-user', 10)).json().data.duplicate).toBe(false);
      expect(await balances()).toEqual([before[0]! + 10, before[1]! + 10]);
    });

    it('scopes a key to the admin: two admins, one key, one user, two grants', async () => {
      const before = await balances();
      expect((await change('add', adminA, ann, 'per-admin', 5)).json().data.duplicate).toBe(false);
      expect((await change('add', adminB, ann, 'per-admin', 5)).json().data.duplicate).toBe(false);
      expect(await balances()).toEqual([before[0]! + 10, before[1]]);
    });

    it('replays the same key with the same amount once, returning the first row', async () => {
      const before = await balances();
      const first = await change('add', adminA, ann, 'replayed', 7);
      const again = await change('add', adminA, ann, 'replayed', 7);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toMatchObject({
        duplicate: true,
        transaction: { id: first.json().data.transaction.id, amount: 7 },
      });
      expect(await balances()).toEqual([before[0]! + 7, before[1]]);
    });

    it('refuses the same key with another amount or direction with 409 and changes nothing', async () => {
      await change('add', adminA, ann, 'changed-amount', 20);
      const before = await balances();
      for (const res of [
        await change('add', adminA, ann, 'changed-amount', 21),
        await change('deduct', adminA, ann, 'changed-amount', 20),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
        expect(res.json().message).toMatch(/new key.*\.$/);
      }
      expect(await balances()).toEqual(before);
    });

    it("cannot spend a system source's key: a later refund with that id still applies", async () => {
      const taskId = '6f0c3c4e-1d6b-4a57-9d39-3a8d7a3f0b11';
      expect((await change('add', adminA, ann, taskId, 3, 'refund')).statusCode).toBe(200);
      const refund = await createCreditsService(t.database.db).apply({
        userId: ann.user.id,
        amount: 17,
        sourceType: 'refund',
        sourceId: taskId,
        description: 'Refund: failed video generation',
      });
      expect(refund.duplicate).toBe(false);
    });
  });

  describe('the dashboard adjustment (POST /api/admin/users/:id/credits)', () => {
    it('replays one key once per admin and user, and applies it for another user or admin', async () => {
      const before = await balances();
      const first = await adjust(adminA, ann, 30, 'dash-1');
      const replay = await adjust(adminA, ann, 30, 'dash-1');
      expect(first.statusCode).toBe(200);
      expect(replay.statusCode).toBe(200);
      expect(replay.json().data.transaction.id).toBe(first.json().data.transaction.id);
      expect((await adjust(adminA, bob, 30, 'dash-1')).statusCode).toBe(200);
      expect((await adjust(adminB, ann, 30, 'dash-1')).statusCode).toBe(200);
      expect(await balances()).toEqual([before[0]! + 60, before[1]! + 30]);

      const audit = await t.app.inject({ url: '/api/admin/actions', headers: bearer(adminA) });
      const keyed = (
        audit.json().data.actions as Array<{ details: { idempotency_key?: string } }>
      ).filter((a) => a.details.idempotency_key === 'dash-1');
      expect(keyed).toHaveLength(3);
    });

    it('refuses one key with another amount with 409', async () => {
      await adjust(adminA, ann, 12, 'dash-2');
      const before = await balances();
      const res = await adjust(adminA, ann, -12, 'dash-2');
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await balances()).toEqual(before);
    });

    it('applies every adjustment sent without a key', async () => {
      const before = await balances();
      await adjust(adminA, bob, 4);
      await adjust(adminA, bob, 4);
      expect(await balances()).toEqual([before[0], before[1]! + 8]);
    });
  });
});
