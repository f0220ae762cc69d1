/**
 * The article page for a slug that has no pre-rendered page yet (just published, rebuild
 * pending, or unknown). The server answers /blog/{slug} and /zh/blog/{slug} with this shell (one
 * per language); it reads the slug and the language from the address, fetches the post and shows
 * it with the same ArticleView as the static pages (spec 2 "Blog article": loading, error/not
 * found, loaded; loading ends once the fetch ends).
 */
import { useEffect, useState } from 'react';
import type { PostDetail } from '../../../shared/api/blog.ts';
import { articleAddress } from '../../../shared/blog.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { getPublishedPost } from '../../lib/api/blog.ts';
import { httpStatus } from '../../lib/api/http.ts';
import { articlePath, postDescription, postDocumentTitle } from '../../lib/blog.ts';
import { readerTimeZone } from '../../lib/post-dates.ts';
import { BRAND } from '../../lib/site.ts';
import ArticleView, { BackToBlog } from './ArticleView.tsx';
import ViewCount from './ViewCount.tsx';

interface ArticleShellProps {
  /** The shell page's language (while loading); then the address's, which the server matches. */
  locale: Locale;
}

type State =
  | { status: 'loading' }
  | { status: 'error'; locale: Locale; notFound: boolean }
  | { status: 'loaded'; locale: Locale; post: PostDetail };

/** Points the head at the article once it is known (the shell's own head names the shell). */
function describeDocument(post: PostDetail): void {
  document.title = postDocumentTitle(post);
  document
    .querySelector('meta[name="description"]')
    ?.setAttribute('content', postDescription(post));
  const canonical = new URL(articlePath(post), window.location.origin).href;
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', canonical);
}

export default function ArticleShell({ locale: pageLocale }: ArticleShellProps) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const address = articleAddress(window.location.pathname);
    const locale = address?.locale ?? pageLocale;
    const fail = (notFound: boolean) => {
      const message = notFound ? m.blog_not_found(locale) : m.blog_load_failed(locale);
      document.title = `${message} | ${BRAND}`;
      setState({ status: 'error', locale, notFound });
    };
    const load = async () => {
      if (!address) return fail(true);
      try {
        const body = await getPublishedPost(address.slug, controller.signal);
        if (!body?.data) throw new Error('The answer has no article');
        // A post is read at its own language's address (the server redirects the other one).
        if (body.data.locale !== address.locale) {
          window.location.replace(articlePath(body.data));
          return;
        }
        describeDocument(body.data);
        setState({ status: 'loaded', locale, post: body.data });
      } catch (error) {
        if (controller.signal.aborted) return;
        fail(httpStatus(error) === 404);
      }
    };
    void load();
    return () => controller.abort();
  }, [pageLocale]);

  if (state.status === 'loading') {
    return (
      <div className="blog-state" role="status" aria-live="polite">
        <div className="spinner" aria-hidden="true" />
        {/* The page's one heading until the article's own title replaces it. */}
        <h1 className="sr-only">{m.blog_loading(pageLocale)}</h1>
      </div>
    );
  }

  const { locale } = state;
  if (state.status === 'error') {
    return (
      <div className="blog-state" role="alert">
        <p className="blog-state__message">
          {state.notFound ? m.blog_not_found(locale) : m.blog_load_failed(locale)}
        </p>
        {/* Spec 8: a missing article also says so in Chinese (on the English page). */}
        {state.notFound && locale !== 'zh-CN' && (
          <p className="blog-state__message" lang="zh-CN">
            {m.blog_not_found('zh-CN')}
          </p>
        )}
        <BackToBlog locale={locale} />
      </div>
    );
  }

  const { post } = state;
  return (
    <ArticleView
      post={post}
      locale={locale}
      views={<ViewCount slug={post.slug} locale={locale} initial={post.view_count} fresh />}
      timeZone={readerTimeZone()}
    />
  );
}
