/**
 * Finding 5 of issue 34: anyone could make us mail one address without end: every sign-in to an
 * unconfirmed account mailed a new link and every reset request mailed too (1 sign-up and
 * 5 sign-ins put 6 mails in the victim's inbox), and the only limit was per client address and
 * route, with each IPv6 address counted apart. Now each address receives at most 3 account mails
 * an hour, whatever asks for them and whichever instance is asked, and the answer does not change
 * when a mail is held back; an IPv6 client is limited per /64.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { users } from '../../server/db/schema.ts';
import { buildTestApp, createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { outboxMailsTo } from '../helpers/outbox.ts';

const MAILS_AN_HOUR = 3;

/** What a client sees of an answer; it must not tell whether a mail went out. */
const seen = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  type: res.headers['content-type'],
  body: res.body,
});

describe('Mail flooding one address', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    /** A second instance on the same database, with an outbox of its own. */
    let other: TestApp;

    beforeAll(async () => {
      t = await createTestApp(kind);
      const { database } = t;
      const second = database.url
        ? { ...openPostgres(database.url, 2), url: database.url }
        : { ...database };
      other = await buildTestApp({
        ...second,
        dispose: () => (database.url ? second.close() : Promise.resolve()),
      });
    });
    afterAll(async () => {
      await other?.close();
      await t?.close();
    });

    const post = (app: TestApp, url: string, payload: object) =>
      app.app.inject({ method: 'POST', url, payload });
    const signUp = (email: string) =>
      post(t, '/auth/signup', { email, password: 'attacker-chose-this' });
    const signIn = (email: string) =>
      post(t, '/auth/signin', { email, password: 'attacker-chose-this' });
    const reset = (email: string, app = t) => post(app, '/api/auth/reset-password', { email });

    async function confirmedAccount(email: string) {
      await t.database.db
        .insert(users)
        .values({ email, provider: 'email', emailVerifiedAt: new Date() });
    }

    it('mails an unconfirmed address 3 times, not 6, for 1 sign-up and 5 sign-ins', async () => {
      const email = 'flooded-by-sign-in@example.com';
      expect((await signUp(email)).statusCode).toBe(200);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(seen(await signIn(email)));

      expect(await outboxMailsTo(t, email)).toHaveLength(MAILS_AN_HOUR);
      // The first two sign-ins mailed a link, the last three did not: all five answer alike.
      expect(answers[0]).toMatchObject({ status: 403 });
      expect(JSON.parse(answers[0]!.body)).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    });

    it('mails reset links to an account 3 times an hour, answering every request alike', async () => {
      const email = 'flooded-by-reset@example.com';
      await confirmedAccount(email);
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(seen(await reset(email)));

      const mails = await outboxMailsTo(t, email);
      expect(mails).toHaveLength(MAILS_AN_HOUR);
      for (const mail of mails) expect(mail).toMatch(/\/reset-password\?token=[\w-]+/);
      expect(answers[0]).toMatchObject({ status: 200 });
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    });

    it('counts sign-up, sign-in and reset mails against one budget per address', async () => {
      const email = 'flooded-every-way@example.com';
      const first = seen(await signUp(email)); // 1: confirmation link
      await reset(email); // 2: reset link
      await signIn(email); // 3: a new confirmation link
      await reset(email); // over the budget: nothing
      const again = seen(await signUp(email)); // over the budget: nothing, same answer
      expect(again).toEqual(first);
      expect(await outboxMailsTo(t, email)).toHaveLength(MAILS_AN_HOUR);

      // Another address has a budget of its own.
      const neighbour = 'not-flooded@example.com';
      await confirmedAccount(neighbour);
      await reset(neighbour);
      expect(await outboxMailsTo(t, neighbour)).toHaveLength(1);
    });

    it('shares the budget between instances on one database', async () => {
      const email = 'flooded-through-two-instances@example.com';
      await confirmedAccount(email);
      for (let i = 0; i < 6; i++) {
        expect((await reset(email, i % 2 === 0 ? t : other)).statusCode).toBe(200);
      }
      const mails = [...(await outboxMailsTo(t, email)), ...(await outboxMailsTo(other, email))];
      expect(mails).toHaveLength(MAILS_AN_HOUR);
    });
  });
});

describe('Rate limits per IPv6 /64', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { deps: { authRateLimit: 3 } });
    });
    afterAll(async () => {
      await t?.close();
    });

    const resetFrom = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: 'nobody@example.com' },
        remoteAddress,
      });
    const statuses = async (addresses: string[]) => {
      const codes = [];
      for (const address of addresses) codes.push((await resetFrom(address)).statusCode);
      return codes;
    };

    it('counts every address of one /64 as one client, and another /64 apart', async () => {
      expect(
        await statuses([
          '2001:db8:aa:1::1',
          '2001:db8:aa:1::2',
          '2001:db8:aa:1:ffff:ffff:ffff:fffe',
          '2001:db8:aa:1:8000::77',
        ]),
      ).toEqual([200, 200, 200, 429]);
      const refused = await resetFrom('2001:0db8:00aa:0001::9');
      expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
      expect(await statuses(['2001:db8:aa:2::1'])).toEqual([200]);
    });

    it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
      expect(
        await statuses(['203.0.113.5', '::ffff:203.0.113.5', '::ffff:cb00:7105', '203.0.113.5']),
      ).toEqual([200, 200, 200, 429]);
      expect(await statuses(['203.0.113.6'])).toEqual([200]);
    });
  });
});
