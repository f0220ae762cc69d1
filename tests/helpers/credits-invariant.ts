/**
 * The credits invariant as a test assertion: every balance equals its ledger, every failed task
 * was refunded exactly once and no completed one was, no charge is missing (the same checks the
 * resilience runner reports, tests/resilience/invariants.ts). Tests grant credits directly
 * (no checkout), so the check against paid checkouts is left out here.
 */
import { expect } from 'vitest';
import type { Db } from '../../server/core/db.ts';
import { ledgerChecks } from '../resilience/invariants.ts';

export async function expectCreditsInvariant(db: Db): Promise<void> {
  const broken = (await ledgerChecks(db)).filter(
    (c) => !c.ok && c.name !== 'balance = packs paid − videos kept',
  );
  expect(broken).toEqual([]);
}
