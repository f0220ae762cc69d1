/**
 * Finding 10 (issue 16), integer overflow: users.credits and the ledger's amounts are 32-bit
 * integers, so a grant that would take a balance past 2,147,483,647 failed in the database and
 * answered 500. Every amount is bounded by its schema and by the column's range, and a grant
 * the balance cannot hold is a 4xx with a clear message that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import {
  bearer,
  createTestApp,
  creditBalance,
  signInAdmin,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const INT4_MAX = 2_147_483_647;

describe.each(databaseKinds)('integer overflow on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let ann: { token: string; user: { id: string } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await signInAdmin(t.app);
    ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
    // A balance near the column's limit, through the ledger like every balance.
    await createCreditsService(t.database.db).apply({
      userId: ann.user.id,
      amount: 2_147_000_000,
      sourceType: 'test_setup',
      sourceId: 'near-limit',
      description: 'Near the limit',
    });
  });
  afterAll(() => t.close());

  const adjust = (amount: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ann.user.id}/credits`,
      headers: bearer(adminToken),
      payload: { amount, reason: 'Overflow test' },
    });
  const add = (amount: unknown, sourceId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/credits/add',
      headers: bearer(adminToken),
      payload: { userId: ann.user.id, amount, sourceType: 'gift', sourceId, description: '' },
    });
  const ledgerIsWhole = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/credits/validate/${ann.user.id}`,
      headers: bearer(adminToken),
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { balance: number; ledgerSum: number; valid: boolean };
  };

  it('refuses an admin grant the balance cannot hold with 409 and changes nothing', async () => {
    for (const res of [await adjust(1_000_000), await add(1_000_000, 'too-much')]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, code: 'BALANCE_LIMIT' });
      expect(res.json().message).toMatch(/2,147,483,647/);
      expect(res.json().message).toMatch(/\.$/);
    }
    expect(await creditBalance(t.app, ann.token)).toBe(2_147_000_000);
    expect(await ledgerIsWhole()).toMatchObject({ balance: 2_147_000_000, valid: true });
  });

  it('grants up to the limit exactly, and every read of that balance still answers', async () => {
    const res = await adjust(INT4_MAX - 2_147_000_000);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.credits).toBe(INT4_MAX);
    expect(await creditBalance(t.app, ann.token)).toBe(INT4_MAX);
    expect(await ledgerIsWhole()).toEqual({
      userId: ann.user.id,
      balance: INT4_MAX,
      ledgerSum: INT4_MAX,
      valid: true,
    });
    for (const url of [
      `/api/admin/users/${ann.user.id}`,
      `/api/admin/users/${ann.user.id}/transactions`,
      '/api/admin/users?q=ann',
      '/api/admin/overview',
    ]) {
      expect((await t.app.inject({ url, headers: bearer(adminToken) })).statusCode).toBe(200);
    }
    const one = await add(1, 'one-more');
    expect(one.statusCode).toBe(409);
    expect(one.json().code).toBe('BALANCE_LIMIT');
  });

  it.each([2 ** 31, -(2 ** 31), 2 ** 53, 1e300, 1_000_001, -1_000_001])(
    'refuses the admin adjustment amount %d with 400',
    async (amount) => {
      const res = await adjust(amount);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/amount/);
    },
  );

  it.each([2 ** 31, 2 ** 53, 1e300, 1_000_001])(
    'refuses the add/deduct amount %d with 400',
    async (amount) => {
      for (const url of ['/api/credits/add', '/api/credits/deduct']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: bearer(adminToken),
          payload: { userId: ann.user.id, amount, sourceType: 'gift', sourceId: `big-${amount}` },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/amount/);
      }
    },
  );

  it.each([2 ** 31, -(2 ** 31), 1e10])(
    'refuses a change of %d in the credits service with a 400, before the database',
    async (amount) => {
      const credits = createCreditsService(t.database.db);
      const error = await credits
        .apply({
          userId: ann.user.id,
          amount,
          sourceType: 'test_setup',
          sourceId: `service-${amount}`,
          description: '',
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 400, code: 'INVALID_AMOUNT' });
    },
  );
});
