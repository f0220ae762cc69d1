/**
 * The article page for a slug that has no pre-rendered page yet (just published, rebuild
 * pending, or unknown). The server answers /blog/{slug} with this shell; it reads the slug from
 * the address, fetches the post and shows it with the same ArticleView as the static pages
 * (spec 2 "Blog article": loading, error/not found, loaded; loading ends once the fetch ends).
 */
import { useEffect, useState } from 'react';
import type { PostDetail } from '../../../server/contracts/blog.ts';
import { getPublishedPost } from '../../lib/api/blog.ts';
import { httpStatus } from '../../lib/api/http.ts';
import {
  ARTICLE_LOAD_FAILED,
  ARTICLE_NOT_EXIST_ZH,
  ARTICLE_NOT_FOUND,
  postDescription,
  postDocumentTitle,
  postPath,
  slugFromPath,
} from '../../lib/blog.ts';
import { readerTimeZone } from '../../lib/post-dates.ts';
import { BRAND } from '../../lib/site.ts';
import ArticleView, { BackToBlog } from './ArticleView.tsx';
import ViewCount from './ViewCount.tsx';

type State =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'loaded'; post: PostDetail };

/** Points the head at the article once it is known (the shell's own head names the shell). */
function describeDocument(post: PostDetail): void {
  document.title = postDocumentTitle(post);
  document
    .querySelector('meta[name="description"]')
    ?.setAttribute('content', postDescription(post));
  const canonical = new URL(postPath(post.slug), window.location.origin).href;
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', canonical);
}

export default function ArticleShell() {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const fail = (message: string) => {
      document.title = `${message} | ${BRAND}`;
      setState({ status: 'error', message });
    };
    const load = async () => {
      const slug = slugFromPath(window.location.pathname);
      if (!slug) return fail(ARTICLE_NOT_FOUND);
      try {
        const body = await getPublishedPost(slug, controller.signal);
        if (!body?.data) throw new Error('The answer has no article');
        describeDocument(body.data);
        setState({ status: 'loaded', post: body.data });
      } catch (error) {
        if (controller.signal.aborted) return;
        const notFound = httpStatus(error) === 404;
        fail(notFound ? ARTICLE_NOT_FOUND : ARTICLE_LOAD_FAILED);
      }
    };
    void load();
    return () => controller.abort();
  }, []);

  if (state.status === 'loading') {
    return (
      <div className="blog-state" role="status" aria-live="polite">
        <div className="spinner" aria-hidden="true" />
        <span className="sr-only">Loading the article…</span>
      </div>
    );
  }

  if (state.status === 'error') {
    return (
      <div className="blog-state" role="alert">
        <p className="blog-state__message">{state.message}</p>
        {/* Spec 8: a missing article also says so in Chinese. */}
        {state.message === ARTICLE_NOT_FOUND && (
          <p className="blog-state__message" lang="zh-CN">
            {ARTICLE_NOT_EXIST_ZH}
          </p>
        )}
        <BackToBlog />
      </div>
    );
  }

  const { post } = state;
  return (
    <ArticleView
      post={post}
      views={<ViewCount slug={post.slug} initial={post.view_count} fresh />}
      timeZone={readerTimeZone()}
    />
  );
}
