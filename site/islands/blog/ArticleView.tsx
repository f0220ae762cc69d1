/**
 * One article (spec 2 "Blog article", loaded state) in the page's language (issue 21: English
 * posts on /blog/{slug}, Chinese ones on /zh/blog/{slug}). The single markup for both routes: the
 * pre-rendered article page renders it to static HTML at build time (no JavaScript), and the
 * article shell renders it in the browser for posts that have no page yet.
 */
import type { ReactNode } from 'react';
import type { PostDetail } from '../../../shared/api/blog.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { blogPath, publishedDate, viewsLabel, wasUpdated } from '../../lib/blog.ts';
import { postDateMarkup } from '../../lib/post-dates.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import ArticleTranslations from './ArticleTranslations.tsx';

interface ArticleViewProps {
  post: PostDetail;
  /** The page's language: the post's own (its address says which). */
  locale: Locale;
  /** The view counter; the static page passes the live island here (an Astro slot). */
  views?: ReactNode;
  /**
   * The zone to write dates in: the reader's when rendered in the browser (the article shell).
   * Left out, dates are in UTC and the page's script rewrites them (LocalPostDates.astro).
   */
  timeZone?: string;
}

export function BackToBlog({ locale }: { locale: Locale }) {
  return (
    <a className="btn btn-primary blog-back" href={blogPath(locale)}>
      <Icon icon={icons.arrowLeft} />
      {m.blog_back_to_blog(locale)}
    </a>
  );
}

interface DateItemProps {
  label: string;
  value: string;
  locale: Locale;
  timeZone?: string;
}

function DateItem({ label, value, locale, timeZone }: DateItemProps) {
  const date = postDateMarkup(value, timeZone, locale);
  return (
    <div className="article-meta__item">
      <span className="article-meta__label">{label}</span>
      <time
        className="article-meta__value"
        dateTime={date.datetime}
        title={date.title || undefined}
        data-post-date=""
        data-time-zone={date.zone}
      >
        {date.text}
      </time>
    </div>
  );
}

export default function ArticleView({ post, locale, views, timeZone }: ArticleViewProps) {
  const published = publishedDate(post);
  return (
    <article className="blog-article">
      <nav className="breadcrumb" aria-label={m.blog_breadcrumb_label(locale)}>
        <ol>
          <li>
            <a href={localizePath('/', locale)}>{m.blog_breadcrumb_home(locale)}</a>
          </li>
          <li>
            <a href={blogPath(locale)}>{m.blog_title(locale)}</a>
          </li>
          <li>
            <span aria-current="page">{post.title}</span>
          </li>
        </ol>
      </nav>

      <header className="article-header">
        <h1 className="article-title">{post.title}</h1>
        {post.excerpt.trim() && <p className="article-excerpt">{post.excerpt}</p>}
        <div className="article-meta">
          <div className="article-meta__item article-meta__author">
            {post.author_avatar && (
              <img
                className="article-meta__avatar"
                src={post.author_avatar}
                alt=""
                width={40}
                height={40}
                decoding="async"
              />
            )}
            <div>
              <span className="article-meta__label">{m.blog_author(locale)}</span>
              <span className="article-meta__value">{post.author_name}</span>
            </div>
          </div>
          <DateItem
            label={m.blog_published(locale)}
            value={published}
            locale={locale}
            timeZone={timeZone}
          />
          {wasUpdated(post) && (
            <DateItem
              label={m.blog_updated(locale)}
              value={post.updated_at}
              locale={locale}
              timeZone={timeZone}
            />
          )}
          <div className="article-meta__item article-meta__views">
            <Icon icon={icons.eye} />
            {views ?? <span>{viewsLabel(post.view_count, locale)}</span>}
          </div>
        </div>
      </header>

      <ArticleTranslations locale={locale} translations={post.translations} />

      {post.featured_image && (
        <figure className="article-figure">
          <img
            src={post.featured_image}
            alt={post.title}
            width={1200}
            height={675}
            decoding="async"
            fetchPriority="high"
          />
        </figure>
      )}

      <div className="prose" dangerouslySetInnerHTML={{ __html: post.content }} />

      {post.tags.length > 0 && (
        <section className="article-tags" aria-labelledby="article-tags-title">
          <h2 id="article-tags-title">{m.blog_tags(locale)}</h2>
          <ul role="list">
            {post.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        </section>
      )}

      <footer className="article-footer">
        <BackToBlog locale={locale} />
      </footer>
    </article>
  );
}
