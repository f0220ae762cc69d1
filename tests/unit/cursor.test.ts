import { describe, expect, it } from 'vitest';
import {
  assertShallowOffset,
  decodeCursor,
  encodeCursor,
  keysetPage,
  MAX_OFFSET,
} from '../../server/core/cursor.ts';
import { AppError } from '../../server/core/errors.ts';

const id = '3f2b8c1e-9a4d-4c6e-8f00-1234567890ab';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('keyset cursor', () => {
  it('round-trips the microsecond timestamp text and the id', () => {
    const key = { ts: '2026-03-04T05:06:07.123456Z', id };
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(id);
    expect(decodeCursor(cursor)).toEqual(key);
  });

  it('keeps two rows in the same millisecond apart (microseconds survive)', () => {
    const a = encodeCursor({ ts: '2026-03-04T05:06:07.123001Z', id });
    const b = encodeCursor({ ts: '2026-03-04T05:06:07.123002Z', id });
    expect(a).not.toBe(b);
    expect(decodeCursor(a).ts).toBe('2026-03-04T05:06:07.123001Z');
  });

  it('refuses to encode a millisecond Date string without a zone as a sort key', () => {
    expect(() => encodeCursor({ ts: '2026-03-04 05:06:07.123', id })).toThrow(/UTC text/);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$%^'],
    ['base64url of text without a separator', Buffer.from('hello').toString('base64url')],
    ['a date that does not exist', Buffer.from(`2026-13-40T00:00:00Z|${id}`).toString('base64url')],
    ['a local time', Buffer.from(`2026-01-01T00:00:00.1|${id}`).toString('base64url')],
    ['an empty id', Buffer.from('2026-01-01T00:00:00.000001Z|').toString('base64url')],
    ['an id with quotes', Buffer.from("2026-01-01T00:00:00Z|x'; drop").toString('base64url')],
    ['too long', 'A'.repeat(600)],
    ['an id that is not a uuid', Buffer.from('2026-01-01T00:00:00Z|id-1').toString('base64url')],
  ])('answers a malformed cursor (%s) with a 400 that says what to send', (_name, cursor) => {
    const error = refusal(() => decodeCursor(cursor));
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('INVALID_CURSOR');
    expect(error.message).toMatch(/next_cursor of the previous page/);
  });

  it('accepts text ids where the list asks for them', () => {
    const cursor = encodeCursor({ ts: '2026-01-01T00:00:00.5Z', id: 'sub_123' });
    expect(decodeCursor(cursor, 'text')).toEqual({ ts: '2026-01-01T00:00:00.5Z', id: 'sub_123' });
    expect(refusal(() => decodeCursor(cursor)).code).toBe('INVALID_CURSOR');
  });

  it('pages rows fetched with limit + 1: has_more and the cursor of the last row shown', () => {
    const rows = [3, 2, 1].map((n) => ({ ts: `2026-01-01T00:00:0${n}.000000Z`, id: `id-${n}` }));
    const page = keysetPage(rows, 2, (row) => row);
    expect(page.rows.map((r) => r.id)).toEqual(['id-3', 'id-2']);
    expect(page.has_more).toBe(true);
    expect(decodeCursor(page.next_cursor!, 'text')).toEqual(rows[1]);
    const last = keysetPage(rows.slice(2), 2, (row) => row);
    expect(last).toEqual({ rows: rows.slice(2), next_cursor: null, has_more: false });
  });

  it('lets shallow offsets through and refuses deep ones with the way to page instead', () => {
    expect(() => assertShallowOffset(MAX_OFFSET)).not.toThrow();
    const error = refusal(() => assertShallowOffset(MAX_OFFSET + 1));
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(
      'Pages beyond 1,000 rows are served by cursor: pass next_cursor from the previous page as cursor.',
    );
  });
});
