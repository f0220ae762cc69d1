/**
 * The editor view (spec 2 "Blog management", 3 "Blog post (admin)", 5 "Blog Save", "Slug
 * preview"): 'New Article' or 'Edit Article', the fields, and Cancel / Save.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import type { AdminPost, PostInput, PostLocale, PostStatus } from '../../../shared/api/blog.ts';
import {
  blogPath,
  POST_EXCERPT_MAX as EXCERPT_MAX,
  POST_META_DESCRIPTION_MAX as META_DESCRIPTION_MAX,
  POST_META_TITLE_MAX as META_TITLE_MAX,
  POST_TITLE_MAX as TITLE_MAX,
} from '../../../shared/blog.ts';
import { failureReason, savePost, uploadFeaturedImage } from '../../lib/api/blog.ts';
import * as icons from '../../lib/icons/index.ts';
import BlogField from './BlogField.tsx';
import FeaturedImage from './FeaturedImage.tsx';
import { MAX_UPLOAD_MB, imageFileProblem } from './image-file.ts';
import LanguageFields from './LanguageFields.tsx';
import type { ArticleEditor } from './quill-setup.ts';
import RichTextEditor from './RichTextEditor.tsx';
import { useSlugify } from './use-slugify.ts';
import Icon from '../shared/Icon.tsx';

const STATUS_OPTIONS: { value: PostStatus; label: string }[] = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
  { value: 'archived', label: 'Archived' },
];

interface PostForm {
  title: string;
  excerpt: string;
  featuredImage: string;
  status: PostStatus;
  locale: PostLocale;
  /** The id of the post this one translates, or '' for none. */
  translationOf: string;
  metaTitle: string;
  metaDescription: string;
  /** As typed: comma-separated. */
  tags: string;
}

/** Spec 3: editor defaults are empty strings, status draft, tags empty; English, no original. */
function formFor(post: AdminPost | null): PostForm {
  return {
    title: post?.title ?? '',
    excerpt: post?.excerpt ?? '',
    featuredImage: post?.featured_image ?? '',
    status: post?.status ?? 'draft',
    locale: post?.locale ?? 'en',
    translationOf: post?.translation_of ?? '',
    metaTitle: post?.meta_title ?? '',
    metaDescription: post?.meta_description ?? '',
    tags: (post?.tags ?? []).join(', '),
  };
}

/** "video, AI,, tips ，video" → ['video', 'AI', 'tips']: trimmed, no empties, no repeats. */
function parseTags(value: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of value.split(/[,，]/)) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

interface PostEditorProps {
  /** The post being edited, or null for a new one. */
  post: AdminPost | null;
  /** The list's posts: the originals a translation may name. */
  posts: readonly AdminPost[];
  /** Saved: the server's message. The parent closes the editor and reloads the list. */
  onSaved: (message: string) => void;
  onClose: () => void;
}

export default function PostEditor({ post, posts, onSaved, onClose }: PostEditorProps) {
  const [form, setForm] = useState<PostForm>(() => formFor(post));
  const [contentEmpty, setContentEmpty] = useState(true);
  const [editorReady, setEditorReady] = useState(false);
  const [featuredUploading, setFeaturedUploading] = useState(false);
  const [inlineUploading, setInlineUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const editorRef = useRef<ArticleEditor | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const slugify = useSlugify();

  const uid = useId();
  const ids = {
    title: `${uid}-title`,
    slug: `${uid}-slug`,
    excerpt: `${uid}-excerpt`,
    featured: `${uid}-featured`,
    contentLabel: `${uid}-content-label`,
    contentHint: `${uid}-content-hint`,
    metaTitle: `${uid}-meta-title`,
    status: `${uid}-status`,
    language: `${uid}-lang`,
    metaDescription: `${uid}-meta-description`,
    tags: `${uid}-tags`,
    tagsHint: `${uid}-tags-hint`,
    saveHint: `${uid}-save-hint`,
  };

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const set = <K extends keyof PostForm>(key: K, value: PostForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const onFeaturedFile = async (file: File) => {
    const problem = imageFileProblem(file);
    if (problem) {
      alert(problem);
      return;
    }
    setFeaturedUploading(true);
    try {
      const url = await uploadFeaturedImage(file);
      set('featuredImage', url);
    } catch (error) {
      console.error('[blog-admin] featured image upload failed', error);
      alert(`Image upload failed: ${failureReason(error)}`);
    } finally {
      setFeaturedUploading(false);
    }
  };

  const onEmptyChange = (empty: boolean) => {
    setEditorReady(true);
    setContentEmpty(empty);
  };

  // Spec 5: Save is disabled unless title and content are both non-empty.
  const missing = !form.title.trim() ? 'title' : contentEmpty ? 'content' : null;
  const uploading = featuredUploading || inlineUploading;
  const canSave = editorReady && !missing && !saving && !uploading;

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const editor = editorRef.current;
    if (!canSave || !editor || editor.isEmpty()) return;
    const input: Required<PostInput> = {
      title: form.title.trim(),
      content: editor.getHTML(),
      excerpt: form.excerpt.trim(),
      featured_image: form.featuredImage || null,
      status: form.status,
      // Both always sent: a new post gets them, an update keeps them as shown.
      locale: form.locale,
      translation_of: form.translationOf || null,
      meta_title: form.metaTitle.trim() || null,
      meta_description: form.metaDescription.trim() || null,
      tags: parseTags(form.tags),
    };
    setSaving(true);
    try {
      const { message } = await savePost(post?.id ?? null, input);
      onSaved(message);
    } catch (error) {
      console.error('[blog-admin] save failed', error);
      setSaving(false);
      alert(`Save failed: ${failureReason(error)}`);
    }
  };

  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  // The post's address follows its language: /blog/… in English, /zh/blog/… in Chinese.
  const slugPreview = `${origin}${blogPath(form.locale)}/${slugify ? slugify(form.title) : '…'}`;

  const saveHint = saving
    ? 'Saving…'
    : uploading
      ? 'Wait for the upload to finish.'
      : missing === 'title'
        ? 'Add a title to save.'
        : missing === 'content'
          ? 'Add some content to save.'
          : '';

  return (
    <form
      className="blog-editor"
      data-testid="blog-editor"
      aria-labelledby={`${uid}-heading`}
      aria-busy={saving}
      onSubmit={onSubmit}
      noValidate
    >
      <div className="blog-editor__head">
        <button type="button" className="btn btn-ghost btn-sm blog-editor__back" onClick={onClose}>
          <Icon icon={icons.chevronLeft} />
          Back to List
        </button>
        <h2 id={`${uid}-heading`} ref={headingRef} tabIndex={-1}>
          {post ? 'Edit Article' : 'New Article'}
        </h2>
      </div>

      <div className="blog-editor__layout">
        <div className="blog-editor__main">
          <BlogField
            id={ids.title}
            label={
              <>
                Title <span className="blog-field__required">*</span>
              </>
            }
          >
            <input
              id={ids.title}
              className="input blog-field__title"
              type="text"
              value={form.title}
              maxLength={TITLE_MAX}
              required
              aria-required="true"
              aria-describedby={ids.slug}
              autoComplete="off"
              placeholder="Article title"
              onChange={(event) => set('title', event.target.value)}
            />
            <p className="slug-preview" id={ids.slug}>
              <span className="slug-preview__label">seo friendly url preview</span>
              <span className="slug-preview__url" data-testid="slug-preview">
                {slugPreview}
              </span>
            </p>
          </BlogField>

          <BlogField id={ids.excerpt} label="Excerpt">
            <textarea
              id={ids.excerpt}
              className="input blog-field__textarea"
              rows={3}
              value={form.excerpt}
              maxLength={EXCERPT_MAX}
              placeholder="A short summary shown in the article list"
              onChange={(event) => set('excerpt', event.target.value)}
            />
          </BlogField>

          <div className="blog-field">
            <span className="blog-field__label" id={ids.contentLabel}>
              Content <span className="blog-field__required">*</span>
            </span>
            <RichTextEditor
              initialHtml={post?.content ?? ''}
              labelId={ids.contentLabel}
              describedBy={ids.contentHint}
              editorRef={editorRef}
              onEmptyChange={onEmptyChange}
              onUploadingChange={setInlineUploading}
            />
            <p className="blog-field__hint" id={ids.contentHint} aria-live="polite">
              {inlineUploading ? (
                <span className="featured-image__uploading">
                  <span className="spinner spinner-sm" aria-hidden="true" />
                  Uploading...
                </span>
              ) : (
                `Images up to ${MAX_UPLOAD_MB} MB. Tab moves on to the next field; in lists it indents.`
              )}
            </p>
          </div>
        </div>

        <aside className="blog-editor__side" aria-label="Publishing and SEO">
          <BlogField id={ids.status} label="Status">
            <select
              id={ids.status}
              className="input select"
              value={form.status}
              onChange={(event) => set('status', event.target.value as PostStatus)}
            >
              {STATUS_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </BlogField>

          <LanguageFields
            id={ids.language}
            posts={posts}
            selfId={post?.id ?? null}
            locale={form.locale}
            translationOf={form.translationOf}
            onChange={(locale, translationOf) =>
              setForm((current) => ({ ...current, locale, translationOf }))
            }
          />

          <FeaturedImage
            id={ids.featured}
            url={form.featuredImage}
            uploading={featuredUploading}
            onFile={(file) => void onFeaturedFile(file)}
            onRemove={() => set('featuredImage', '')}
          />

          <BlogField id={ids.metaTitle} label="SEO Title">
            <input
              id={ids.metaTitle}
              className="input"
              type="text"
              value={form.metaTitle}
              maxLength={META_TITLE_MAX}
              autoComplete="off"
              placeholder="Defaults to the title"
              onChange={(event) => set('metaTitle', event.target.value)}
            />
          </BlogField>

          <BlogField id={ids.metaDescription} label="SEO Description">
            <textarea
              id={ids.metaDescription}
              className="input blog-field__textarea"
              rows={3}
              value={form.metaDescription}
              maxLength={META_DESCRIPTION_MAX}
              placeholder="Defaults to the excerpt"
              onChange={(event) => set('metaDescription', event.target.value)}
            />
          </BlogField>

          <BlogField id={ids.tags} label="Tags">
            <input
              id={ids.tags}
              className="input"
              type="text"
              value={form.tags}
              autoComplete="off"
              placeholder="ai video, tutorial"
              aria-describedby={ids.tagsHint}
              onChange={(event) => set('tags', event.target.value)}
            />
            <p className="blog-field__hint" id={ids.tagsHint}>
              Separate tags with commas.
            </p>
          </BlogField>
        </aside>
      </div>

      <div className="blog-editor__actions">
        <p className="blog-editor__save-hint" id={ids.saveHint} aria-live="polite">
          {saveHint}
        </p>
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!canSave}
          aria-describedby={ids.saveHint}
          data-testid="blog-save"
        >
          {saving && <span className="spinner spinner-sm" aria-hidden="true" />}
          Save
        </button>
      </div>
    </form>
  );
}
