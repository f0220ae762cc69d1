/**
 * Finding 1 of issue 16: an attacker signs up with the victim's email and a password of their
 * own; when the victim later signs in with Google, the account must become the victim's alone.
 * Email/password accounts prove their address through a mailed single-use link before they can
 * sign in or be linked, and Google identities are keyed by `sub`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { hashPassword } from '../../server/core/passwords.ts';
import { hashToken, newToken } from '../../server/core/tokens.ts';
import { sessions, users } from '../../server/db/schema.ts';
import { startGoogleFake, type GoogleFake } from '../fakes/google.ts';
import { bearer, createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe('Account pre-hijack through Google sign-in', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let google: GoogleFake;
    let t: TestApp;
    /** Outbox files already handed to a test, so each test reads only the mail it caused. */
    const readMails = new Set<string>();

    beforeAll(async () => {
      google = await startGoogleFake();
      t = await createTestApp(kind, {
        env: {
          GOOGLE_CLIENT_ID: google.clientId,
          GOOGLE_JWKS_URL: google.jwksUrl,
          GOOGLE_TOKENINFO_URL: google.tokeninfoUrl,
          GOOGLE_USERINFO_URL: google.userinfoUrl,
        },
      });
    });
    afterAll(async () => {
      await t.close();
      await google.close();
    });

    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
    const signUp = (email: string, password: string, name?: string) =>
      post('/auth/signup', { email, password, ...(name ? { name } : {}) });
    const signIn = (email: string, password: string) => post('/auth/signin', { email, password });
    const signInWithGoogle = async (sub: string, email: string, name = 'Victim Person') =>
      post('/api/auth/google', { credential: await google.signIdToken({ sub, email, name }) });
    const verify = (token: string) => post('/api/auth/verify-email', { token });
    const currentUser = (token: string) =>
      t.app.inject({ url: '/api/auth/user', headers: bearer(token) });

    /** The mails to `to` that no earlier call returned, oldest first. */
    async function newMailsTo(to: string): Promise<string[]> {
      await t.app.accounts.queuedMailSettled(); // a reset mails after its answer
      const dir = path.join(t.dataDir, 'outbox');
      const files = (await readdir(dir).catch(() => [] as string[])).sort();
      const mails: string[] = [];
      for (const file of files) {
        if (readMails.has(file)) continue;
        const text = await readFile(path.join(dir, file), 'utf8');
        if (!text.includes(`To: ${to}\r\n`)) continue;
        readMails.add(file);
        mails.push(text);
      }
      return mails;
    }

    /** The token of the one new confirmation link mailed to `to`. */
    async function verificationToken(to: string): Promise<string> {
      const mails = await newMailsTo(to);
      expect(mails, `new mails to ${to}`).toHaveLength(1);
      const match = /(\S+)\/verify-email\?token=([\w-]+)/.exec(mails[0]!);
      expect(match?.[1], 'link origin').toBe(t.config.publicSiteUrl);
      return match![2]!;
    }

    async function userRow(email: string) {
      const [row] = await t.database.db.select().from(users).where(eq(users.email, email));
      return row;
    }

    it('ends the attacker’s access when the victim signs in with Google', async () => {
      const email = 'victim-google@example.com';
      const attackerPassword = 'attacker-chose-this';
      const up = await signUp(email, attackerPassword, 'Mallory');
      expect(up.statusCode).toBe(200);

      const victim = await signInWithGoogle('sub-victim-1', email);
      expect(victim.statusCode).toBe(200);
      const attacker = await signIn(email, attackerPassword);
      expect(attacker.statusCode, 'the attacker signs in with their password').toBe(401);
      expect(victim.json().data.user).toMatchObject({ email, provider: 'google' });
      // The sign-up's link went to the victim's mailbox; should the victim open it now, it must
      // not set the attacker's password.
      const attackerLink = await verificationToken(email);
      expect((await verify(attackerLink)).statusCode).toBe(400);
      expect((await signIn(email, attackerPassword)).statusCode).toBe(401);
      const row = await userRow(email);
      expect(row).toMatchObject({
        googleSub: 'sub-victim-1',
        passwordHash: null,
        name: 'Victim Person',
      });
      expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    });

    it('takes over an unproven account from before this change: password, sessions and reset links end', async () => {
      const email = 'legacy-victim@example.com';
      const attackerPassword = 'legacy-attacker-pw';
      // What the old sign-up left behind: an unproven account with the attacker's password and
      // a live session of theirs.
      const [legacy] = await t.database.db
        .insert(users)
        .values({ email, provider: 'email', passwordHash: await hashPassword(attackerPassword) })
        .returning();
      const attackerSession = newToken();
      await t.database.db.insert(sessions).values({
        userId: legacy!.id,
        tokenHash: hashToken(attackerSession),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      expect((await currentUser(attackerSession)).statusCode).toBe(200);
      expect((await post('/api/auth/reset-password', { email })).statusCode).toBe(200);
      const resetMail = (await newMailsTo(email)).join('\n');
      const resetToken = /reset-password\?token=([\w-]+)/.exec(resetMail)?.[1];
      expect(resetToken).toBeTruthy();

      const victim = await signInWithGoogle('sub-legacy-victim', email);
      expect(victim.statusCode).toBe(200);
      expect(victim.json().data.user.id).toBe(legacy!.id);

      expect((await currentUser(attackerSession)).statusCode).toBe(401);
      expect((await signIn(email, attackerPassword)).statusCode).toBe(401);
      const reset = await post('/api/auth/reset-password/confirm', {
        token: resetToken,
        password: 'attacker-new-password',
      });
      expect(reset.statusCode).toBe(400);
      expect((await currentUser(victim.json().data.token)).statusCode).toBe(200);
      expect(await userRow(email)).toMatchObject({
        provider: 'google',
        googleSub: 'sub-legacy-victim',
        passwordHash: null,
      });
    });

    it('refuses a second Google identity for an account bound to another sub, and never rebinds it', async () => {
      const email = 'bound@example.com';
      const first = await signInWithGoogle('sub-bound-owner', email);
      expect(first.statusCode).toBe(200);

      const other = await signInWithGoogle('sub-bound-intruder', email);
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({ success: false, code: 'GOOGLE_ACCOUNT_CONFLICT' });
      expect(other.json().message).toMatch(/another Google account.*\.$/);

      expect((await userRow(email))?.googleSub).toBe('sub-bound-owner');
      const again = await signInWithGoogle('sub-bound-owner', email);
      expect(again.json().data.user.id).toBe(first.json().data.user.id);
    });

    it('links Google to an email account whose address was proven, keeping its password', async () => {
      const email = 'proven@example.com';
      await signUp(email, 'proven-password');
      const session = await verify(await verificationToken(email));
      expect(session.statusCode).toBe(200);

      const linked = await signInWithGoogle('sub-proven', email);
      expect(linked.statusCode).toBe(200);
      expect(linked.json().data.user.id).toBe(session.json().data.user.id);
      expect((await currentUser(session.json().data.token)).statusCode).toBe(200);
      expect((await signIn(email, 'proven-password')).statusCode).toBe(200);
      expect((await userRow(email))?.googleSub).toBe('sub-proven');
    });

    it('signs up, mails a link, refuses sign-in until it is opened, then signs in', async () => {
      const email = 'flow@example.com';
      const up = await signUp(email, 'flow-password', 'Flo');
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ success: true, message: expect.stringMatching(/link.*\.$/) });
      const token = await verificationToken(email);

      const early = await signIn(email, 'flow-password');
      expect(early.statusCode).toBe(403);
      expect(early.json()).toMatchObject({ success: false, code: 'EMAIL_NOT_VERIFIED' });
      expect(early.json().message).toMatch(/link.*\.$/);
      const resent = await verificationToken(email); // a fresh link comes with the refusal

      const wrong = await signIn(email, 'not-the-password');
      const unknown = await signIn('nobody-here@example.com', 'not-the-password');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(await newMailsTo(email)).toHaveLength(0);

      const verified = await verify(token);
      expect(verified.statusCode).toBe(200);
      expect(verified.json().data.user).toMatchObject({ email, name: 'Flo', provider: 'email' });
      expect((await currentUser(verified.json().data.token)).statusCode).toBe(200);
      expect((await signIn(email, 'flow-password')).statusCode).toBe(200);
      // Once proven, the other outstanding link is spent too.
      expect((await verify(resent)).statusCode).toBe(400);

      const taken = await signUp(email, 'another-password');
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('EMAIL_TAKEN');
    });

    it('accepts a link once, and refuses an expired one with a message saying what to do', async () => {
      const email = 'once@example.com';
      await signUp(email, 'once-password');
      const token = await verificationToken(email);
      expect((await verify(token)).statusCode).toBe(200);
      const reused = await verify(token);
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toMatchObject({ success: false, code: 'VERIFICATION_TOKEN_INVALID' });
      expect(reused.json().message).toMatch(/sign up again.*\.$/i);

      const late = 'late@example.com';
      await signUp(late, 'late-password');
      const lateToken = await verificationToken(late);
      await t.database.db.execute(
        sql`update email_verification_tokens set expires_at = now() - interval '1 second'
            where token_hash = ${hashToken(lateToken)}`,
      );
      const expired = await verify(lateToken);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().code).toBe('VERIFICATION_TOKEN_INVALID');
      expect((await signIn(late, 'late-password')).statusCode).toBe(401);
    });

    it('lets only the mailbox owner’s click choose the password of a contested sign-up', async () => {
      const email = 'contested@example.com';
      const attacker = await signUp(email, 'attacker-password', 'Mallory');
      const attackerLink = await verificationToken(email);
      const owner = await signUp(email, 'owner-password', 'Olive');
      const ownerLink = await verificationToken(email);
      // Same answer for a new address and an unproven one: nothing to enumerate.
      expect(owner.statusCode).toBe(attacker.statusCode);
      expect(owner.json()).toEqual(attacker.json());

      const verified = await verify(ownerLink);
      expect(verified.json().data.user.name).toBe('Olive');
      expect((await verify(attackerLink)).statusCode).toBe(400);
      expect((await signIn(email, 'attacker-password')).statusCode).toBe(401);
      expect((await signIn(email, 'owner-password')).statusCode).toBe(200);
    });

    it('treats a completed password reset as proof of the address', async () => {
      const email = 'reset-proves@example.com';
      await signUp(email, 'first-password');
      const signupLink = await verificationToken(email);
      await post('/api/auth/reset-password', { email });
      const resetMail = (await newMailsTo(email)).join('\n');
      const resetToken = /reset-password\?token=([\w-]+)/.exec(resetMail)?.[1];
      const confirm = await post('/api/auth/reset-password/confirm', {
        token: resetToken,
        password: 'chosen-by-reset',
      });
      expect(confirm.statusCode).toBe(200);
      expect((await signIn(email, 'chosen-by-reset')).statusCode).toBe(200);
      expect((await verify(signupLink)).statusCode).toBe(400);
    });

    it('creates one user when the same new Google account signs in several times at once', async () => {
      const email = 'racing@example.com';
      const credentials = await Promise.all(
        Array.from({ length: 10 }, () => google.signIdToken({ sub: 'sub-racing', email })),
      );
      const answers = await Promise.all(
        credentials.map((credential) => post('/api/auth/google', { credential })),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((res) => res.json().data.user.id)).size).toBe(1);
      const rows = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from users where email = ${email} or google_sub = 'sub-racing'`,
      );
      expect(rows[0]?.n).toBe(1);
    });

    /** Resolves once a session of this database waits on a row lock (10 s at most). */
    async function waitForLockWaiter() {
      for (const end = Date.now() + 10_000; Date.now() < end;) {
        const [row] = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if ((row?.n ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the sign-in never waited on the held row');
    }

    // PGlite runs one statement at a time, so only PostgreSQL can hold a row open mid-sign-in.
    it.runIf(kind === 'postgres')(
      'answers the loser of a first-sign-in race with the winner’s account, not a 500',
      async () => {
        const email = 'held@example.com';
        let signingIn: Promise<Awaited<ReturnType<typeof post>>> | undefined;
        const winner = await t.database.db.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({
              email,
              provider: 'google',
              googleSub: 'sub-held',
              emailVerifiedAt: new Date(),
            })
            .returning();
          signingIn = signInWithGoogle('sub-held', email);
          // Until the sign-in's insert waits on this uncommitted row (seen from another connection).
          await waitForLockWaiter();
          return row!;
        });
        const res = await signingIn!;
        expect(res.statusCode).toBe(200);
        expect(res.json().data.user.id).toBe(winner.id);
      },
    );
  });
});
