/**
 * /blog-admin (spec 2 "Blog management", 4 "Blog management modes", 6 "Blog manager",
 * 7 blog admin calls, 8 "Blog admin alerts"): the permission check, then the article list or
 * the editor, with where publishing stands in the header.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminPost } from '../../shared/api/blog.ts';
import { BLOG_MESSAGES } from '../../shared/blog.ts';
import { checkBlogAccess, deletePost, failureReason, getPost, listPosts } from '../lib/api/blog.ts';
import * as icons from '../lib/icons/index.ts';
import { $authToken } from '../stores/auth.ts';
import PostEditor from './blog-admin/PostEditor.tsx';
import PostList from './blog-admin/PostList.tsx';
import PublishStatus, { usePublishStatus } from './blog-admin/PublishStatus.tsx';
import LoadingScreen from './LoadingScreen.tsx';
import Icon from './shared/Icon.tsx';

const NO_PERMISSION_MESSAGE = BLOG_MESSAGES.noPermission;
const DELETE_CONFIRMATION = 'Are you sure you want to delete this article?';
/** How long a success message stays in the banner. */
const MESSAGE_MS = 6000;

type Access = 'checking' | 'allowed';

type View =
  | { kind: 'list' }
  /** `post` is null for a new article; `loading` while an edited post is fetched. */
  | { kind: 'editor'; session: number; post: AdminPost | null; loading: boolean };

export default function BlogAdmin() {
  const [access, setAccess] = useState<Access>('checking');
  const [posts, setPosts] = useState<AdminPost[]>([]);
  const [listLoading, setListLoading] = useState(true);
  const [listFailed, setListFailed] = useState(false);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const session = useRef(0);
  const listHeadingFocus = useRef(false);
  const { status, watch } = usePublishStatus(access === 'allowed');

  const reloadList = useCallback(async () => {
    setListLoading(true);
    try {
      setPosts(await listPosts());
      setListFailed(false);
    } catch (error) {
      // Spec 8 logs a list load failure; the list also says so, with Retry (issue 20), rather
      // than reading 'No articles yet' when the articles only failed to load.
      console.error('[blog-admin] list load failed', error);
      setListFailed(true);
    } finally {
      setListLoading(false);
    }
  }, []);

  // Spec 6: no stored token → /login; 403 → alert and /; any other failure → /login.
  useEffect(() => {
    if (!$authToken.get()) {
      window.location.replace('/login');
      return;
    }
    let active = true;
    void checkBlogAccess().then((result) => {
      if (!active) return;
      if (result === 'allowed') {
        setAccess('allowed');
        void reloadList();
      } else if (result === 'forbidden') {
        alert(NO_PERMISSION_MESSAGE);
        window.location.replace('/');
      } else {
        window.location.replace('/login');
      }
    });
    return () => {
      active = false;
    };
  }, [reloadList]);

  useEffect(() => {
    if (access !== 'allowed') return;
    // Warm the editor's code (Quill, the slug rule) while the list is read, so it opens at once.
    const timer = setTimeout(() => {
      import('./blog-admin/quill-setup.ts').catch(() => undefined);
      import('../../shared/slug.ts').catch(() => undefined);
    }, 1000);
    return () => clearTimeout(timer);
  }, [access]);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(''), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);

  useEffect(() => {
    if (view.kind !== 'list' || !listHeadingFocus.current) return;
    listHeadingFocus.current = false;
    document.getElementById('blog-admin-list-title')?.focus();
  }, [view]);

  /** Spec 4: New Article clears the form and opens the editor. */
  const openNew = () => {
    session.current += 1;
    setMessage('');
    setView({ kind: 'editor', session: session.current, post: null, loading: false });
    window.scrollTo({ top: 0 });
  };

  /** Spec 4: Edit loads the post (GET by id); the list's copy stands in if that fails. */
  const openEdit = async (post: AdminPost) => {
    session.current += 1;
    const current = session.current;
    setMessage('');
    setView({ kind: 'editor', session: current, post: null, loading: true });
    window.scrollTo({ top: 0 });
    let loaded = post;
    try {
      loaded = await getPost(post.id);
    } catch (error) {
      console.error('[blog-admin] loading the post failed; editing the list copy', error);
    }
    if (session.current !== current) return;
    setView({ kind: 'editor', session: current, post: loaded, loading: false });
  };

  const closeEditor = () => {
    session.current += 1;
    listHeadingFocus.current = true;
    setView({ kind: 'list' });
  };

  /** Spec 4: Save shows the server's message, closes the editor, resets the form, reloads. */
  const onSaved = (serverMessage: string) => {
    closeEditor();
    setMessage(serverMessage || 'Saved');
    watch();
    void reloadList();
  };

  const onDelete = async (post: AdminPost) => {
    if (!confirm(DELETE_CONFIRMATION)) return;
    setDeletingId(post.id);
    try {
      const serverMessage = await deletePost(post.id);
      setMessage(serverMessage || 'Deleted');
      watch();
      await reloadList();
    } catch (error) {
      console.error('[blog-admin] delete failed', error);
      alert(`Delete failed: ${failureReason(error)}`);
    } finally {
      setDeletingId(null);
    }
  };

  if (access === 'checking') {
    // The page's one heading in its HTML, until the page behind the check shows its own.
    return (
      <>
        <h1 className="sr-only">Blog Management</h1>
        <LoadingScreen />
      </>
    );
  }

  return (
    <div className="blog-admin">
      <header className="blog-admin__header">
        <div className="blog-admin__title">
          <h1>Blog Management</h1>
          <PublishStatus status={status} />
        </div>
        <div className="blog-admin__header-actions">
          <a className="btn btn-secondary" href="/">
            <Icon icon={icons.chevronLeft} />
            Back to Home
          </a>
          <button type="button" className="btn btn-primary" onClick={openNew}>
            <Icon icon={icons.plus} />
            New Article
          </button>
        </div>
      </header>

      <p className="blog-admin__message" role="status" data-testid="blog-admin-message">
        {message && (
          <>
            <Icon icon={icons.check} strokeWidth={2.2} />
            {message}
          </>
        )}
      </p>

      {view.kind === 'list' ? (
        <PostList
          posts={posts}
          loading={listLoading}
          failed={listFailed}
          onRetry={() => void reloadList()}
          deletingId={deletingId}
          onEdit={(post) => void openEdit(post)}
          onDelete={(post) => void onDelete(post)}
          onCreate={openNew}
        />
      ) : view.loading ? (
        <div className="blog-admin-panel blog-admin-empty" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" />
          Loading the article…
        </div>
      ) : (
        <PostEditor
          key={view.session}
          post={view.post}
          posts={posts}
          onSaved={onSaved}
          onClose={closeEditor}
        />
      )}
    </div>
  );
}
