/**
 * One article (spec 2 "Blog article", loaded state). The single markup for both routes: the
 * pre-rendered /blog/{slug} renders it to static HTML at build time (no JavaScript), and the
 * article shell renders it in the browser for posts that have no page yet.
 */
import type { ReactNode } from 'react';
import type { PostDetail } from '../../../server/contracts/blog.ts';
import { BACK_TO_BLOG, BLOG_PATH, publishedDate, viewsLabel, wasUpdated } from '../../lib/blog.ts';
import { postDateMarkup } from '../../lib/post-dates.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

interface ArticleViewProps {
  post: PostDetail;
  /** The view counter; the static page passes the live island here (an Astro slot). */
  views?: ReactNode;
  /**
   * The zone to write dates in: the reader's when rendered in the browser (the article shell).
   * Left out, dates are in UTC and the page's script rewrites them (LocalPostDates.astro).
   */
  timeZone?: string;
}

export function BackToBlog() {
  return (
    <a className="btn btn-primary blog-back" href={BLOG_PATH}>
      <Icon icon={icons.arrowLeft} />
      {BACK_TO_BLOG}
    </a>
  );
}

function DateItem({ label, value, timeZone }: { label: string; value: string; timeZone?: string }) {
  const date = postDateMarkup(value, timeZone);
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

export default function ArticleView({ post, views, timeZone }: ArticleViewProps) {
  const published = publishedDate(post);
  return (
    <article className="blog-article">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <a href="/">Home</a>
          </li>
          <li>
            <a href={BLOG_PATH}>Blog</a>
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
              <span className="article-meta__label">Author</span>
              <span className="article-meta__value">{post.author_name}</span>
            </div>
          </div>
          <DateItem label="Published" value={published} timeZone={timeZone} />
          {wasUpdated(post) && (
            <DateItem label="Updated" value={post.updated_at} timeZone={timeZone} />
          )}
          <div className="article-meta__item article-meta__views">
            <Icon icon={icons.eye} />
            {views ?? <span>{viewsLabel(post.view_count)}</span>}
          </div>
        </div>
      </header>

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
          <h2 id="article-tags-title">Tags</h2>
          <ul role="list">
            {post.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        </section>
      )}

      <footer className="article-footer">
        <BackToBlog />
      </footer>
    </article>
  );
}
