/**
 * 'Article List' (spec 2 "Blog management"): Title with its language, the excerpt and what it
 * translates beneath (issue 21), Status badge, Views, Created Time and Actions. Below 720 px each
 * row becomes a card (CSS only).
 */
import type { AdminPost, PostLocale, PostStatus } from '../../../shared/api/blog.ts';
import { postPath } from '../../../shared/blog.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import { LANGUAGE_LABELS, translationsOf } from './post-language.ts';

const STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  archived: 'Archived',
};

export function statusLabel(status: PostStatus): string {
  return STATUS_LABELS[status] ?? status;
}

/** Spec 2: Created Time as a local date. */
function createdDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString();
}

/** 'EN' / '中文', read as 'Language: Chinese' (the short mark alone says little when heard). */
function LanguageBadge({ locale }: { locale: PostLocale }) {
  const label = LANGUAGE_LABELS[locale] ?? { short: locale, name: locale };
  return (
    <span className="lang-badge" data-testid="blog-admin-language">
      <span aria-hidden="true" lang={locale}>
        {label.short}
      </span>
      <span className="sr-only">Language: {label.name}</span>
    </span>
  );
}

/** Under the title: the original a translation translates, or an original's translations. */
function TranslationNote({ post, posts }: { post: AdminPost; posts: readonly AdminPost[] }) {
  if (post.translation_of) {
    const original = posts.find((other) => other.id === post.translation_of);
    return (
      <span className="blog-admin-table__translation" data-testid="blog-admin-translation">
        Translation of{' '}
        {original ? (
          <>
            “<span lang={original.locale}>{original.title || 'Untitled'}</span>”
          </>
        ) : (
          'a post not in the list'
        )}
      </span>
    );
  }
  const translations = translationsOf(posts, post.id);
  if (translations.length === 0) return null;
  return (
    <span className="blog-admin-table__translation" data-testid="blog-admin-translation">
      Translated into{' '}
      {[...new Set(translations.map((other) => LANGUAGE_LABELS[other.locale]?.name))].join(', ')}
    </span>
  );
}

interface PostListProps {
  posts: AdminPost[];
  loading: boolean;
  /** The last load failed: say so and offer Retry (the rows already shown stay). */
  failed: boolean;
  onRetry: () => void;
  /** Id of the post being deleted, whose row is disabled meanwhile. */
  deletingId: string | null;
  onEdit: (post: AdminPost) => void;
  onDelete: (post: AdminPost) => void;
  onCreate: () => void;
}

export default function PostList({
  posts,
  loading,
  failed,
  onRetry,
  deletingId,
  onEdit,
  onDelete,
  onCreate,
}: PostListProps) {
  return (
    <section
      className="blog-admin-panel"
      aria-labelledby="blog-admin-list-title"
      aria-busy={loading}
      data-testid="blog-admin-list"
    >
      <div className="blog-admin-panel__head">
        <h2 id="blog-admin-list-title" tabIndex={-1}>
          Article List
        </h2>
        {!loading && (
          <p className="blog-admin-panel__count">
            {posts.length} {posts.length === 1 ? 'article' : 'articles'}
          </p>
        )}
      </div>

      {failed && !loading && (
        <div
          className={`blog-admin-empty blog-admin-empty--error${posts.length ? ' blog-admin-empty--inline' : ''}`}
          data-testid="blog-admin-list-error"
        >
          <p role="alert">
            The articles could not be loaded. Check your connection, then try again.
          </p>
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            Retry
          </button>
        </div>
      )}
      {failed && !loading && posts.length === 0 ? null : loading && posts.length === 0 ? (
        <div className="blog-admin-empty" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" />
          Loading articles…
        </div>
      ) : posts.length === 0 ? (
        <div className="blog-admin-empty">
          <p>No articles yet</p>
          <button type="button" className="btn btn-primary" onClick={onCreate}>
            New Article
          </button>
        </div>
      ) : (
        // Roles restate the table semantics that `display: block` drops in the card layout.
        <table className="table blog-admin-table" role="table">
          <thead role="rowgroup">
            <tr role="row">
              <th scope="col" role="columnheader">
                Title
              </th>
              <th scope="col" role="columnheader">
                Status
              </th>
              <th scope="col" role="columnheader" className="is-numeric">
                Views
              </th>
              <th scope="col" role="columnheader">
                Created Time
              </th>
              <th scope="col" role="columnheader" className="is-actions">
                Actions
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup">
            {posts.map((post) => {
              const deleting = deletingId === post.id;
              const title = post.title || 'Untitled';
              return (
                <tr
                  key={post.id}
                  role="row"
                  data-testid="blog-admin-row"
                  className={deleting ? 'is-deleting' : undefined}
                >
                  <td role="cell" className="blog-admin-table__title">
                    <span className="blog-admin-table__name">
                      <LanguageBadge locale={post.locale} /> <span lang={post.locale}>{title}</span>
                    </span>
                    {post.excerpt && (
                      <span className="blog-admin-table__excerpt" lang={post.locale}>
                        {post.excerpt}
                      </span>
                    )}
                    <TranslationNote post={post} posts={posts} />
                  </td>
                  <td role="cell" data-label="Status">
                    <span className={`badge status-badge--${post.status}`}>
                      {statusLabel(post.status)}
                    </span>
                  </td>
                  <td role="cell" data-label="Views" className="is-numeric">
                    {post.view_count.toLocaleString()}
                  </td>
                  <td role="cell" data-label="Created Time">
                    <time dateTime={post.created_at}>{createdDate(post.created_at)}</time>
                  </td>
                  <td role="cell" className="is-actions">
                    <div className="blog-admin-table__actions">
                      {post.status === 'published' && (
                        // Its address in its own language: /blog/… or /zh/blog/….
                        <a
                          className="btn btn-ghost btn-sm"
                          href={postPath(post.slug, post.locale)}
                          aria-label={`View “${title}”`}
                        >
                          <Icon icon={icons.eye} />
                          View
                        </a>
                      )}
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        onClick={() => onEdit(post)}
                        disabled={deleting}
                        aria-label={`Edit “${title}”`}
                      >
                        <Icon icon={icons.edit} />
                        Edit
                      </button>
                      <button
                        type="button"
                        className="btn btn-danger btn-sm"
                        onClick={() => onDelete(post)}
                        disabled={deleting}
                        aria-busy={deleting}
                        aria-label={`Delete “${title}”`}
                      >
                        <Icon icon={icons.trash} />
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
