/**
 * One reading kept for a while: `(fresh?) => Promise<T>` answers the last reading until it is
 * `ttlMs` old (concurrent callers share one in flight), or reads now when `fresh`. A failed
 * reading is not kept, so the next call tries again. For figures that scan a lot of rows and
 * may lag a little (the admin overview's counts, the providers card).
 */
export function cachedReading<T>(
  read: (at: Date) => Promise<T>,
  opts: { ttlMs: number; now?: () => Date },
): (fresh?: boolean) => Promise<T> {
  const now = opts.now ?? (() => new Date());
  let cached: { expiresAt: number; answer: Promise<T> } | null = null;
  return (fresh = false) => {
    const at = now();
    if (cached && !fresh && cached.expiresAt > at.getTime()) return cached.answer;
    const entry = { expiresAt: at.getTime() + opts.ttlMs, answer: read(at) };
    cached = entry;
    entry.answer.catch(() => {
      if (cached === entry) cached = null;
    });
    return entry.answer;
  };
}
