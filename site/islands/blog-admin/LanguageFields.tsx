/**
 * The post's 'Language' and 'Translation of' choices (issue 21). A translation names an
 * original (a post that translates nothing) in the other language; changing the language drops a
 * choice that would then be in the same language, and says so.
 */
import { useState } from 'react';
import type { AdminPost, PostLocale } from '../../../shared/api/blog.ts';
import { LOCALES } from '../../../shared/locales.ts';
import BlogField from './BlogField.tsx';
import {
  existingTranslation,
  LANGUAGE_LABELS,
  translationCandidates,
  translationsOf,
} from './post-language.ts';
import { statusLabel } from './PostList.tsx';

interface LanguageFieldsProps {
  /** Prefix of the controls' ids. */
  id: string;
  /** Every post the list holds: the choices come from them. */
  posts: readonly AdminPost[];
  /** The edited post's id, or null for a new post. */
  selfId: string | null;
  locale: PostLocale;
  /** The id of the post this one translates, or '' for none. */
  translationOf: string;
  onChange: (locale: PostLocale, translationOf: string) => void;
}

/** "“Title” (Published)": the option that names a post. */
function postLabel(post: AdminPost): string {
  return `“${post.title || 'Untitled'}” (${statusLabel(post.status)})`;
}

export default function LanguageFields({
  id,
  posts,
  selfId,
  locale,
  translationOf,
  onChange,
}: LanguageFieldsProps) {
  const [resetNotice, setResetNotice] = useState('');
  const languageId = `${id}-language`;
  const translationId = `${id}-translation`;
  const hintId = `${id}-translation-hint`;

  const candidates = translationCandidates(posts, locale, selfId);
  // The stored choice stays visible even when the list no longer offers it (stale or unloaded).
  const current = posts.find((post) => post.id === translationOf);
  const offersCurrent = translationOf === '' || candidates.some((p) => p.id === translationOf);
  const ownTranslations = selfId ? translationsOf(posts, selfId) : [];
  // The server refuses to make a post with translations of its own a translation too.
  const mustStayOriginal = ownTranslations.length > 0 && translationOf === '';
  const otherLanguages = LOCALES.filter((code) => code !== locale)
    .map((code) => LANGUAGE_LABELS[code].name)
    .join(' or ');

  const onLanguage = (next: PostLocale) => {
    const target = posts.find((post) => post.id === translationOf);
    const keeps = translationOf === '' || (target !== undefined && target.locale !== next);
    setResetNotice(
      keeps
        ? ''
        : `‘Translation of’ is reset to None: a translation is of a post in another language.`,
    );
    onChange(next, keeps ? translationOf : '');
  };

  return (
    <>
      <BlogField id={languageId} label="Language">
        <select
          id={languageId}
          className="input select"
          value={locale}
          data-testid="blog-language"
          onChange={(event) => onLanguage(event.target.value as PostLocale)}
        >
          {LOCALES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_LABELS[code].autonym}
            </option>
          ))}
        </select>
      </BlogField>

      <BlogField id={translationId} label="Translation of">
        <select
          id={translationId}
          className="input select"
          value={translationOf}
          aria-describedby={hintId}
          disabled={mustStayOriginal}
          data-testid="blog-translation-of"
          onChange={(event) => {
            setResetNotice('');
            onChange(locale, event.target.value);
          }}
        >
          <option value="">None</option>
          {!offersCurrent && (
            <option value={translationOf}>
              {current ? postLabel(current) : 'A post not in the list'}
            </option>
          )}
          {candidates.map((post) => {
            const taken = existingTranslation(posts, post.id, locale, selfId);
            return (
              <option key={post.id} value={post.id} disabled={!!taken}>
                {postLabel(post)}
                {taken ? ' — already translated' : ''}
              </option>
            );
          })}
        </select>
        <div className="blog-field__hint" id={hintId} aria-live="polite">
          {resetNotice ? (
            <p className="blog-field__notice">{resetNotice}</p>
          ) : mustStayOriginal ? null : (
            <p>
              {candidates.length
                ? `The ${otherLanguages} original this post translates. Leave None for an original.`
                : `No ${otherLanguages} originals yet: this post is an original.`}
            </p>
          )}
          {ownTranslations.length > 0 && (
            <p data-testid="blog-own-translations">
              {mustStayOriginal ? 'An original, translated as ' : 'Translated as '}
              {ownTranslations.map((post, index) => (
                <span key={post.id}>
                  {index > 0 && ', '}“<span lang={post.locale}>{post.title || 'Untitled'}</span>” (
                  {LANGUAGE_LABELS[post.locale].name}, {statusLabel(post.status)})
                </span>
              ))}
              .
            </p>
          )}
        </div>
      </BlogField>
    </>
  );
}
