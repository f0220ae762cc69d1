/**
 * '{n} views' on an article (spec 2). Starts from the count in the page, then counts this visit
 * once per browser session (POST …/view) or, on a repeat visit, reads the current count.
 */
import { useEffect, useState } from 'react';
import type { PostDetailResponse } from '../../../server/contracts/blog.ts';
import { api } from '../../lib/api.ts';
import { viewsLabel } from '../../lib/blog.ts';

interface ViewCountProps {
  slug: string;
  /** The count known when the page was made (the snapshot, or the shell's fetch). */
  initial: number;
  /** `initial` was just read from the API: a repeat visit needs no second read. */
  fresh?: boolean;
}

interface ViewAnswer {
  success: boolean;
  data: { view_count: number };
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

export default function ViewCount({ slug, initial, fresh = false }: ViewCountProps) {
  const [count, setCount] = useState(initial);

  useEffect(() => {
    const controller = new AbortController();
    const path = `/api/blog/posts/${encodeURIComponent(slug)}`;
    const update = async () => {
      try {
        if (!hasViewed(slug)) {
          // Not retried: a repeated POST would count the visit twice.
          const body = await api
            .post(`${path}/view`, { signal: controller.signal, retry: 0 })
            .json<ViewAnswer>();
          markViewed(slug);
          if (typeof body.data?.view_count === 'number') setCount(body.data.view_count);
        } else if (!fresh) {
          const body = await api
            .get(path, { signal: controller.signal })
            .json<PostDetailResponse>();
          if (typeof body.data?.view_count === 'number') setCount(body.data.view_count);
        }
      } catch {
        // Spec 8: transport failures are only logged (lib/api.ts); the page keeps its count.
      }
    };
    void update();
    return () => controller.abort();
  }, [slug, fresh]);

  return <span className="view-count">{viewsLabel(count)}</span>;
}
