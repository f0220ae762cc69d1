import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCreditsService,
  InsufficientCreditsError,
} from '../../server/domains/credits/service.ts';
import { bearer, createTestApp, makeAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('credits ledger on %s', (kind) => {
  let t: TestApp;
  let admin: { token: string };
  let ann: { token: string; user: { id: string } };
  let bob: { token: string; user: { id: string } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInLocal(t.app, 'admin@example.com', 'Admin');
    await makeAdmin(t, admin.token);
    ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
    bob = await signInLocal(t.app, 'bob@example.com', 'Bob');
  });
  afterAll(() => t.close());

  const change = (direction: 'add' | 'deduct', token: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/credits/${direction}`,
      headers: bearer(token),
      payload,
    });

  describe('POST /api/credits/add and /deduct', () => {
    it.each([
      ['anonymous', null, 401],
      ['a signed-in user', 'ann', 403],
    ])('refuses %s', async (_who, who, status) => {
      const token = who === 'ann' ? ann.token : null;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/credits/add',
        headers: token ? bearer(token) : {},
        payload: {
          userId: ann.user.id,
          amount: 100,
          sourceType: 'gift',
          sourceId: 'nope',
          description: 'x',
        },
      });
      expect(res.statusCode).toBe(status);
      const balance = await t.app.inject({
        url: '/api/credits/balance',
        headers: bearer(ann.token),
      });
      expect(balance.json().data.total_credits).toBe(0);
    });

    it('grants once per source: a repeat returns the first result', async () => {
      const payload = {
        userId: ann.user.id,
        amount: 100,
        sourceType: 'gift',
        sourceId: 'welcome',
        description: 'Welcome gift',
      };
      const first = await change('add', admin.token, payload);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toMatchObject({
        balance: 100,
        duplicate: false,
        transaction: { amount: 100, balance_after: 100 },
      });
      const again = await change('add', admin.token, payload);
      expect(again.json().data).toMatchObject({
        balance: 100,
        duplicate: true,
        transaction: { id: first.json().data.transaction.id, amount: 100 },
      });
      // The same key with another amount is refused (tests/security/admin-idempotency-keys.test.ts).
      const changed = await change('add', admin.token, { ...payload, amount: 999 });
      expect(changed.statusCode).toBe(409);
      expect(changed.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
      const balance = await t.app.inject({
        url: '/api/credits/balance',
        headers: bearer(ann.token),
      });
      expect(balance.json().data).toMatchObject({ total_credits: 100, user: { credits: 100 } });
      expect(balance.json().data.transactions).toHaveLength(1);
    });

    it('deducts, and refuses with 402 and writes nothing when the balance is short', async () => {
      const ok = await change('deduct', admin.token, {
        userId: ann.user.id,
        amount: 30,
        sourceType: 'adjustment',
        sourceId: 'a1',
        description: 'Correction',
      });
      expect(ok.json().data).toMatchObject({
        balance: 70,
        transaction: { amount: -30, balance_after: 70 },
      });
      const short = await change('deduct', admin.token, {
        userId: ann.user.id,
        amount: 71,
        sourceType: 'adjustment',
        sourceId: 'a2',
        description: 'Too much',
      });
      expect(short.statusCode).toBe(402);
      expect(short.json()).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
      const validate = await t.app.inject({
        method: 'POST',
        url: `/api/credits/validate/${ann.user.id}`,
        headers: bearer(admin.token),
      });
      expect(validate.json().data).toEqual({
        userId: ann.user.id,
        balance: 70,
        ledgerSum: 70,
        valid: true,
      });
    });

    it.each([
      [{ amount: 0 }, /amount/],
      [{ amount: -5 }, /amount/],
      [{ amount: 1.5 }, /amount/],
      [{ userId: 'not-a-uuid' }, /userId/],
      [{ sourceType: 'Has Spaces' }, /sourceType/],
    ])('answers 400 for %j', async (override, pattern) => {
      const res = await change('add', admin.token, {
        userId: ann.user.id,
        amount: 5,
        sourceType: 'gift',
        sourceId: 'v',
        description: '',
        ...override,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(pattern);
    });

    it('answers 404 for an unknown user', async () => {
      const res = await change('add', admin.token, {
        userId: '00000000-0000-4000-8000-000000000000',
        amount: 5,
        sourceType: 'gift',
        sourceId: 'ghost',
        description: '',
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('GET /api/credits/{userId}/transactions', () => {
    it('pages the own ledger newest first, refuses another user, allows an administrator', async () => {
      for (let i = 0; i < 12; i++) {
        await change('add', admin.token, {
          userId: bob.user.id,
          amount: i + 1,
          sourceType: 'gift',
          sourceId: `bob-${i}`,
          description: `Gift ${i}`,
        });
      }
      const page = await t.app.inject({
        url: `/api/credits/${bob.user.id}/transactions?limit=5&offset=5`,
        headers: bearer(bob.token),
      });
      expect(page.statusCode).toBe(200);
      const body = page.json().data;
      expect(body).toMatchObject({ total: 12, limit: 5, offset: 5 });
      expect(body.transactions.map((x: { amount: number }) => x.amount)).toEqual([7, 6, 5, 4, 3]);

      const defaults = await t.app.inject({
        url: `/api/credits/${bob.user.id}/transactions`,
        headers: bearer(bob.token),
      });
      expect(defaults.json().data).toMatchObject({ limit: 10, offset: 0 });
      expect(defaults.json().data.transactions).toHaveLength(10);

      const balance = await t.app.inject({
        url: '/api/credits/balance',
        headers: bearer(bob.token),
      });
      expect(balance.json().data.transactions).toHaveLength(10);
      expect(balance.json().data.total_credits).toBe(78);

      const other = await t.app.inject({
        url: `/api/credits/${bob.user.id}/transactions`,
        headers: bearer(ann.token),
      });
      expect(other.statusCode).toBe(403);
      const asAdmin = await t.app.inject({
        url: `/api/credits/${bob.user.id}/transactions`,
        headers: bearer(admin.token),
      });
      expect(asAdmin.statusCode).toBe(200);
      const anonymous = await t.app.inject({ url: `/api/credits/${bob.user.id}/transactions` });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('concurrency', () => {
    it('50 parallel deductions of 17 against 170: exactly 10 succeed and the ledger matches', async () => {
      const carol = await signInLocal(t.app, 'carol@example.com', 'Carol');
      const credits = createCreditsService(t.database.db);
      await credits.apply({
        userId: carol.user.id,
        amount: 170,
        sourceType: 'gift',
        sourceId: 'carol-170',
        description: '',
      });
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          credits.apply({
            userId: carol.user.id,
            amount: -17,
            sourceType: 'test_spend',
            sourceId: `carol-${i}`,
            description: 'Spend',
          }),
        ),
      );
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected');
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditsError);
      expect(await credits.validate(carol.user.id)).toMatchObject({
        balance: 0,
        ledgerSum: 0,
        valid: true,
      });
    });

    it('the same source sent 20 times at once is applied once', async () => {
      const dan = await signInLocal(t.app, 'dan@example.com', 'Dan');
      const credits = createCreditsService(t.database.db);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          credits.apply({
            userId: dan.user.id,
            amount: 330,
            sourceType: 'checkout',
            sourceId: 'cs_same',
            description: 'Starter',
          }),
        ),
      );
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      expect(await credits.validate(dan.user.id)).toMatchObject({ balance: 330, ledgerSum: 330 });
    });
  });
});
