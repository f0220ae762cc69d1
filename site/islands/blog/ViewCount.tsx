/**
 * '{n} views' on an article (spec 2; '{n} 次浏览' on a Chinese one). Starts from the count in the page, then counts this visit
 * once per browser session (POST …/view) or, on a repeat visit, reads the current count.
 */
import { useEffect, useState } from 'react';
import { countPostView, getPublishedPost } from '../../lib/api/blog.ts';
import type { Locale } from '../../i18n/locales.ts';
import { viewsLabel } from '../../lib/blog.ts';

interface ViewCountProps {
  slug: string;
  locale: Locale;
  /** The count known when the page was made (the snapshot, or the shell's fetch). */
  initial: number;
  /** `initial` was just read from the API: a repeat visit needs no second read. */
  fresh?: boolean;
}

const viewedKey = (slug: string) => `blog:viewed:${slug}`;

function hasViewed(slug: string): boolean {
  try {
    return sessionStorage.getItem(viewedKey(slug)) === '1';
  } catch {
    return false; // storage blocked: count the view
  }
}

function markViewed(slug: string): void {
  try {
    sessionStorage.setItem(viewedKey(slug), '1');
  } catch {
    // storage blocked: nothing to remember
  }
}

export default function ViewCount({ slug, locale, initial, fresh = false }: ViewCountProps) {
  const [count, setCount] = useState(initial);

  useEffect(() => {
    const controller = new AbortController();
    const update = async () => {
      try {
        if (!hasViewed(slug)) {
          const body = await countPostView(slug, controller.signal);
          markViewed(slug);
          if (typeof body.data?.view_count === 'number') setCount(body.data.view_count);
        } else if (!fresh) {
          const body = await getPublishedPost(slug, controller.signal);
          if (typeof body.data?.view_count === 'number') setCount(body.data.view_count);
        }
      } catch {
        // Spec 8: transport failures are only logged (lib/api/http.ts); the page keeps its count.
      }
    };
    void update();
    return () => controller.abort();
  }, [slug, fresh]);

  return <span className="view-count">{viewsLabel(count, locale)}</span>;
}
