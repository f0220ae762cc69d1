/** The shared slug rule (shared/slug.ts) for the editor's address preview. */
import { useEffect, useState } from 'react';

type Slugify = (title: string) => string;

/**
 * The shared slug rule (shared/slug.ts), loaded with the editor: only this view needs it.
 */
export function useSlugify(): Slugify | null {
  const [slugify, setSlugify] = useState<{ fn: Slugify } | null>(null);
  useEffect(() => {
    let active = true;
    import('../../../shared/slug.ts')
      .then((module) => {
        if (active) setSlugify({ fn: module.slugify });
      })
      .catch((error: unknown) => console.error('[blog-admin] slug rule failed to load', error));
    return () => {
      active = false;
    };
  }, []);
  return slugify?.fn ?? null;
}
