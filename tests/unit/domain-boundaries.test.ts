/**
 * Domain boundaries that keep each domain changeable on its own: a domain reaches another only
 * through that domain's service.ts or plugin.ts (its decoration and types), never its
 * repository, providers or any other module; core/ imports no domain and no domain's config
 * (npm run lint checks the same rules, and import circles, with dependency-cruiser); and Stripe's
 * event JSON is read in one place, the Stripe adapter (billing/providers/stripe*.ts), which hands
 * typed values to the rest of billing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, rel, relativeImports, ROOT } from '../helpers/source-tree.ts';

const root = ROOT;

const domainsDir = path.join(ROOT, 'server', 'domains');
const tsFiles = (dir: string) => filesUnder(dir, ['.ts']);

/** `server/domains/<domain>/…` → `<domain>`; null outside the domains. */
function domainOf(file: string): string | null {
  const inside = path.relative(domainsDir, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return inside.split(path.sep)[0] ?? null;
}

/** A domain's repository modules: `repository.ts`, `*-repository.ts` or a `repository/` folder. */
const isRepository = (file: string) =>
  /(^|[/-])repository(\.ts$|\/)/.test(path.relative(domainsDir, file).split(path.sep).join('/'));

/** Names only Stripe's JSON uses (events, sessions, invoices, charges), and its verification call. */
const STRIPE_WIRE =
  /\b(payment_status|billing_reason|amount_refunded|payment_intent|subscription_details)\b|\bdata\.object\b|\bconstructEvent\b/;

/** The adapter edge: the only modules that may read Stripe's JSON. */
const isStripeAdapter = (file: string) =>
  /^server\/domains\/billing\/providers\/stripe[\w-]*\.ts$/.test(rel(file));

/** The modules a domain shows the others: its service and its plugin. */
const isPublicFace = (file: string) =>
  /^server\/domains\/[^/]+\/(service|plugin)\.ts$/.test(rel(file));

/** Configuration modules that belong to one domain (the video routes and providers). */
const isDomainConfig = (file: string) => /^server\/config-video\.ts$/.test(rel(file));

describe('domain boundaries', () => {
  it('a domain imports nothing of another domain but its service or plugin', () => {
    const offending = tsFiles(domainsDir).flatMap((file) =>
      relativeImports(file)
        .filter((target) => {
          const owner = domainOf(target);
          return owner !== null && owner !== domainOf(file) && !isPublicFace(target);
        })
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('core imports no domain and no config of one', () => {
    const offending = tsFiles(path.join(root, 'server', 'core')).flatMap((file) =>
      relativeImports(file)
        .filter((target) => domainOf(target) !== null || isDomainConfig(target))
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(offending).toEqual([]);
  });

  it("no domain imports another domain's repository", () => {
    const offending = tsFiles(domainsDir).flatMap((file) =>
      relativeImports(file)
        .filter((target) => {
          const owner = domainOf(target);
          return owner !== null && owner !== domainOf(file) && isRepository(target);
        })
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(offending).toEqual([]);
  });

  it('Stripe event JSON is read only by the Stripe adapter', () => {
    const files = [...tsFiles(path.join(root, 'server')), ...tsFiles(path.join(root, 'scripts'))];
    const offending = files
      .filter((file) => !isStripeAdapter(file))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${rel(file)}:${i + 1}` }))
          .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && STRIPE_WIRE.test(line))
          .map(({ line, at }) => `${at}: ${line.trim()}`),
      );
    expect(offending).toEqual([]);
  });

  it('the checks see the code (the webhook handler and a cross-domain service import exist)', () => {
    const files = tsFiles(domainsDir).map(rel);
    expect(files).toContain('server/domains/billing/webhooks.ts');
    expect(files.some((file) => isStripeAdapter(path.join(root, file)))).toBe(true);
    const billingImports = tsFiles(path.join(domainsDir, 'billing')).flatMap((file) =>
      relativeImports(file).map(rel),
    );
    expect(billingImports).toContain('server/domains/credits/service.ts');
  });
});
