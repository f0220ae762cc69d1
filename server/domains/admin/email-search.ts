/**
 * The admin's search by part of an email, planned from the trigrams' frequencies (issue 19).
 *
 * pg_trgm's GIN index answers `email ILIKE '%text%'` by reading the posting list of every trigram
 * of the text and intersecting them. A trigram that most emails share ('com', 'gma', the words of
 * a shared domain or prefix) has a posting list as long as the table, so at 100k users a search
 * for 'user-000424' read 159 index pages to find one row, where its rare part '000424' reads 9.
 * The search therefore asks the index for the part of the text whose trigrams cost least to read
 * (the probe), and checks the whole text on the few rows the index returns.
 *
 * The frequencies are ANALYZE's: extended statistics on `show_trgm(email)` (migration 0012),
 * whose most common elements are the common trigrams. They are read at most once per
 * EMAIL_STATS_TTL_MS. Without them (never analyzed, as a new PGlite database) the probe is the
 * whole text, as a plain ILIKE. A text whose every part is common (a good share of all emails
 * match) is `broad`: the list is left to the planner, which walks users_created_id_idx until a
 * page is full, rather than reading every match through the index and sorting them.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';

/** The statistics object of migration 0012. */
export const EMAIL_TRIGRAM_STATS = 'users_email_trigram_stats';
/** How long one reading of the statistics serves searches (ANALYZE changes them rarely). */
export const EMAIL_STATS_TTL_MS = 10 * 60_000;

/** The users table's trigram frequencies (0..1 of the rows), as ANALYZE last sampled them. */
export interface TrigramStats {
  /** The planner's row estimate of users (pg_class.reltuples). */
  rows: number;
  /** The most common trigrams and the share of rows whose email holds each. */
  frequencies: ReadonlyMap<string, number>;
  /** The share assumed for a trigram not listed: half the least common listed one's. */
  unlisted: number;
}

/** How the list reads a search: the index asked for `probe`, and the whole text checked. */
export interface EmailSearchPlan {
  probe: string;
  /** So common that walking the list in order fills a page sooner than reading every match. */
  broad: boolean;
}

/** Probes are parts of the text of 3 to PROBE_MAX_CHARS characters. */
const PROBE_MIN_CHARS = 3;
const PROBE_MAX_CHARS = 16;
/** About how many row pointers one page of a GIN posting tree holds (compressed). */
const POINTERS_PER_INDEX_PAGE = 3000;
/**
 * A search is broad when each of its trigrams is in this share of the emails (and the table is
 * large enough for it to matter): walking the list newest first then meets a match every few rows.
 */
const BROAD_SHARE = 0.2;
const BROAD_ROWS = 1000;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The trigrams pg_trgm asks its index for on `ILIKE '%text%'`: the words of the text (runs of
 * letters and digits, lowercased), each padded with two blanks before and one after where a
 * separator inside the text bounds it, and not where it touches the text's ends (a wildcard).
 */
export function likeTrigrams(text: string): Set<string> {
  const lower = text.toLowerCase();
  const trigrams = new Set<string>();
  for (const match of lower.matchAll(WORD)) {
    const start = match.index;
    const end = start + match[0].length;
    const padded = [...(start > 0 ? '  ' : ''), ...match[0], ...(end < lower.length ? ' ' : '')];
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3).join(''));
  }
  return trigrams;
}

/** The share of users whose email holds `trigram`. */
const shareOf = (stats: TrigramStats, trigram: string) =>
  stats.frequencies.get(trigram) ?? stats.unlisted;

/**
 * The probe with the least estimated reading: the index pages of its trigrams' posting lists
 * (each as long as its trigram's share) plus the rows the index hands back (the shares' product,
 * as if independent). Ties go to the longer probe. The search is broad when even the text's
 * rarest trigram is in BROAD_SHARE of the emails. `text` is lowercased already.
 */
export function planEmailSearch(text: string, stats: TrigramStats | null): EmailSearchPlan {
  if (!stats || stats.rows <= 0) return { probe: text, broad: false };
  const whole = [...likeTrigrams(text)].map((trigram) => shareOf(stats, trigram));
  if (whole.length && Math.min(...whole) >= BROAD_SHARE && stats.rows * BROAD_SHARE > BROAD_ROWS) {
    return { probe: text, broad: true };
  }
  const chars = [...text];
  let best: { probe: string; cost: number } | null = null;
  for (let start = 0; start < chars.length; start++) {
    const longest = Math.min(PROBE_MAX_CHARS, chars.length - start);
    for (let length = PROBE_MIN_CHARS; length <= longest; length++) {
      const probe = chars.slice(start, start + length).join('');
      const trigrams = likeTrigrams(probe);
      if (trigrams.size === 0) continue;
      let pages = 0;
      let matches = stats.rows;
      for (const trigram of trigrams) {
        const share = shareOf(stats, trigram);
        pages += (stats.rows * share) / POINTERS_PER_INDEX_PAGE;
        matches *= share;
      }
      const cost = pages + matches;
      if (!best || cost < best.cost || (cost === best.cost && probe.length > best.probe.length)) {
        best = { probe, cost };
      }
    }
  }
  return { probe: best?.probe ?? text, broad: false };
}

/**
 * Reads the statistics of migration 0012 (null before the first ANALYZE of users). The element
 * frequencies end with three extra figures (least, most, null share), which are dropped.
 */
export async function readEmailTrigramStats(db: DbOrTx): Promise<TrigramStats | null> {
  const rows = await queryRows<{ elems: string[] | null; freqs: number[] | null; rows: number }>(
    db,
    sql`select e.most_common_elems::text::text[] as elems, e.most_common_elem_freqs as freqs,
               c.reltuples::float8 as rows
        from pg_stats_ext_exprs e join pg_class c on c.oid = 'users'::regclass
        where e.statistics_name = ${EMAIL_TRIGRAM_STATS}`,
  );
  const row = rows[0];
  if (!row?.elems?.length || !row.freqs || row.rows <= 0) return null;
  const frequencies = new Map<string, number>();
  row.elems.forEach((trigram, i) => frequencies.set(trigram, Number(row.freqs![i])));
  const least = Math.min(...frequencies.values());
  return { rows: Number(row.rows), frequencies, unlisted: least / 2 };
}
