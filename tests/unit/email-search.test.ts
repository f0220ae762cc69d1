/**
 * The admin email search's planner (issue 19, email-search.ts): which trigrams pg_trgm asks its
 * index for on ILIKE '%text%', and which part of the text the search asks for instead when
 * ANALYZE says some of its trigrams are in most emails.
 */
import { describe, expect, it } from 'vitest';
import {
  likeTrigrams,
  planEmailSearch,
  type TrigramStats,
} from '../../server/domains/admin/email-search.ts';

const sorted = (set: Set<string>) => [...set].sort();

describe('likeTrigrams (pg_trgm on LIKE %text%)', () => {
  it.each([
    // A word touching both ends (wildcards) is not padded.
    ['ser', ['ser']],
    ['user', ['ser', 'use']],
    // A separator inside the text bounds the words beside it: "er " and "  0", " 00".
    ['user-000424', ['  0', ' 00', '000', '004', '042', '424', 'er ', 'ser', 'use']],
    ['R-00', ['  0', ' 00']],
    // A one-letter word after a separator still makes one ("  b"); one before it makes none.
    ['a@b', ['  b']],
    ['.@-', []],
    ['Ünïcode', ['cod', 'ode', 'nïc', 'ïco', 'ünï']],
  ])('%s', (text, expected) => {
    expect(sorted(likeTrigrams(text))).toEqual([...expected].sort());
  });
});

describe('planEmailSearch', () => {
  /** 100,000 users whose emails all read member-NNNNN@shared.example. */
  const common = ['mem', 'emb', 'mbe', 'ber', 'er ', '  s', ' sh', 'sha', 'har', 'are', 'red'];
  const stats: TrigramStats = {
    rows: 100_000,
    frequencies: new Map([
      ...common.map((t) => [t, 1] as const),
      ['  0', 0.9],
      [' 00', 0.1],
      ['000', 0.02],
      ['004', 0.02],
    ]),
    unlisted: 0.001,
  };

  it('asks for the whole text when there are no statistics (never analyzed)', () => {
    expect(planEmailSearch('member-00424', null)).toEqual({
      probe: 'member-00424',
      broad: false,
    });
  });

  it('asks the index for the rare part and leaves out the trigrams every email holds', () => {
    const plan = planEmailSearch('member-00424', stats);
    expect(plan.broad).toBe(false);
    expect('member-00424').toContain(plan.probe);
    for (const trigram of likeTrigrams(plan.probe)) expect(common).not.toContain(trigram);
    expect(plan.probe).toBe('0424');
  });

  it('leaves a text whose every trigram is common to the ordered walk', () => {
    expect(planEmailSearch('shared', stats)).toEqual({ probe: 'shared', broad: true });
    expect(planEmailSearch('member-', stats)).toEqual({ probe: 'member-', broad: true });
  });

  it('is not broad on a small table, where reading every match costs little', () => {
    expect(planEmailSearch('shared', { ...stats, rows: 2000 }).broad).toBe(false);
  });

  it('keeps a text with no trigram whole (the index reads it all, as before)', () => {
    expect(planEmailSearch('.@-', stats)).toEqual({ probe: '.@-', broad: false });
  });
});
