/**
 * Issue 16, finding 4: the Terms and the Refund Policy said a cancelled plan runs to the end of
 * its period, while the product cancels at once (spec 4 "Subscription: … cancel (immediate) ->
 * none") and keeps the credits. The pages are rendered as the site renders them (Astro's Markdown
 * processor, then the page's placeholder fill) and read against what the cancel API does.
 */
import { readFile } from 'node:fs/promises';
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillLegalPlaceholders } from '../../site/lib/legal.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

const LEGAL_PAGES = ['terms-of-service', 'refund-policy'] as const;

/** The text a reader sees on /{page}: rendered Markdown, placeholders filled, tags dropped. */
async function legalText(page: string): Promise<string> {
  const markdown = await readFile(
    new URL(`../../content/legal/${page}.md`, import.meta.url),
    'utf8',
  );
  const processor = await createSatteriMarkdownProcessor({});
  const { code } = await processor.render(markdown);
  return fillLegalPlaceholders(code, `/${page}`)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;|[“”]/g, '"')
    .replace(/&#39;|[‘’]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sentences of `text` that mention cancelling. */
const cancelSentences = (text: string) =>
  text.split(/(?<=[.!?])\s+/).filter((sentence) => /\bcancel/i.test(sentence));

describe('Legal text matches behaviour', () => {
  it.each(LEGAL_PAGES)(
    '/%s no longer says a cancelled plan runs on to the end of its period',
    async (page) => {
      const text = await legalText(page);
      expect(text).not.toMatch(/until the end of the (billing )?period/i);
      expect(text).not.toMatch(/keep (the|your) plan\b[^.]*\buntil\b/i);
      expect(text).not.toMatch(/stops the next renewal/i);
      expect(text).not.toMatch(/so that the plan does not renew/i);
    },
  );

  it.each(LEGAL_PAGES)(
    '/%s says cancelling takes effect immediately and keeps the credits',
    async (page) => {
      const sentences = cancelSentences(await legalText(page));
      expect(sentences.some((s) => /\bimmediately\b/i.test(s))).toBe(true);
      expect(sentences.some((s) => /\bcredits\b[^.]*\b(stay|keep)/i.test(s))).toBe(true);
    },
  );

  it('the refund policy keeps the spec facts (spec 9 "Refund policy")', async () => {
    const text = await legalText('refund-policy');
    for (const fact of [
      /within 3 days of purchase if you have used 200 credits or fewer/i,
      /payment processing fees are deducted/i,
      /credit packs \(Starter, Basic and Standard\) are non-refundable/i,
      /refund the annual payment minus one month of the same plan at its monthly price, and minus the payment processing fees/i,
      /processed in 5-7 business days/i,
    ]) {
      expect(text).toMatch(fact);
    }
  });

  describe.each(databaseKinds)('against the cancel API on %s', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    it('cancelling ends the plan at once, keeps the credits, and the pages quote its message', async () => {
      const ann = await signInLocal(t.app, 'ann-legal@example.com');
      const created = await requestCheckout(t.app, ann.token, {
        type: 'subscription',
        plan_id: 'lite',
        billing_cycle: 'monthly',
      });
      expect(created.statusCode).toBe(200);
      expect((await submitLocalCheckout(t.app, created.json().sessionId)).statusCode).toBe(303);
      const credits = await creditBalance(t.app, ann.token);
      expect(credits).toBe(590);

      const cancel = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/subscription/cancel',
        headers: bearer(ann.token),
        payload: { immediately: true },
      });
      expect(cancel.statusCode).toBe(200);
      const { message } = cancel.json().data as { message: string };

      // What the pages promise, the product does: no plan from this moment, every credit kept.
      const status = await t.app.inject({
        url: '/api/stripe/subscription/status',
        headers: bearer(ann.token),
      });
      expect(status.json()).toMatchObject({ hasActiveSubscription: false, subscription: null });
      expect(await creditBalance(t.app, ann.token)).toBe(credits);

      for (const page of LEGAL_PAGES) {
        expect(await legalText(page), `/${page} quotes the cancel message`).toContain(message);
      }
    });
  });
});
