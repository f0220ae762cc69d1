/**
 * Choosing a post's slug so that it stays unique when editors save at the same time (issue 16,
 * finding 9). The choice and the write happen in one transaction that holds a lock on the slug's
 * stem (shared/slug.ts `slugStem`), so saves of one title take turns; a save that still loses
 * the slug to another (two titles whose candidates overlap, such as "Launch" and "Launch 2")
 * chooses again.
 */
import type { Db, DbOrTx } from '../../core/db.ts';
import { conflict } from '../../core/errors.ts';
import { slugify, slugStem, uniqueSlug } from '../../../shared/slug.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';

/** Paths under /blog that belong to the site, never to a post. */
const RESERVED_SLUGS = new Set(['article-shell', 'page', 'rss', 'index']);

/** Choices a save makes before giving up; each lost one means another save succeeded. */
const ATTEMPTS = 5;

/** The first free slug for `title` as seen inside `tx`; `own` (the post's current slug) is free. */
async function freeSlug(tx: DbOrTx, title: string, own: string | null): Promise<string> {
  const base = slugify(title);
  const stem = slugStem(base);
  await repo.lockSlugStem(tx, stem);
  const taken = await repo.slugsLike(tx, stem);
  if (own) taken.delete(own);
  return uniqueSlug(base, (s) => taken.has(s) || RESERVED_SLUGS.has(s));
}

/**
 * Runs `write` with a free slug for `title` in one transaction, and again with a new choice when
 * the slug was taken by a save that committed first.
 */
export async function withFreeSlug<T>(
  db: Db,
  title: string,
  own: string | null,
  write: (tx: DbOrTx, slug: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => write(tx, await freeSlug(tx, title, own)));
    } catch (error) {
      if (!repo.isSlugTaken(error)) throw error;
      if (attempt >= ATTEMPTS) {
        throw conflict(msg('blog.slug_taken'), 'SLUG_TAKEN');
      }
    }
  }
}
