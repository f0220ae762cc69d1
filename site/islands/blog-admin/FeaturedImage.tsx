/**
 * Featured Image (spec 2): a file picker, 'Uploading...' while the upload runs, then a preview
 * with remove. The upload answer's data.url becomes the post's featured_image (spec 7).
 */
import { useRef, type ChangeEvent } from 'react';
import * as icons from '../../lib/icons/index.ts';
import { ACCEPT_ATTRIBUTE, MAX_UPLOAD_MB } from './image-file.ts';
import Icon from '../shared/Icon.tsx';

interface FeaturedImageProps {
  id: string;
  url: string;
  uploading: boolean;
  onFile: (file: File) => void;
  onRemove: () => void;
}

export default function FeaturedImage({
  id,
  url,
  uploading,
  onFile,
  onRemove,
}: FeaturedImageProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = `${id}-hint`;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a failure or a removal.
    event.target.value = '';
    if (file) onFile(file);
  };

  const remove = () => {
    onRemove();
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  return (
    <div className="blog-field" data-testid="featured-image">
      <label className="blog-field__label" htmlFor={id}>
        Featured Image
      </label>
      <div className={`featured-image${url ? ' has-image' : ''}`}>
        {url && (
          <figure className="featured-image__preview">
            <img src={url} alt="Featured image preview" />
            <button
              type="button"
              className="featured-image__remove"
              onClick={remove}
              disabled={uploading}
              aria-label="Remove featured image"
              data-testid="remove-featured-image"
            >
              <Icon icon={icons.close} strokeWidth={2.5} />
            </button>
          </figure>
        )}
        <div className="featured-image__picker">
          <input
            ref={inputRef}
            id={id}
            className="featured-image__input"
            type="file"
            accept={ACCEPT_ATTRIBUTE}
            aria-describedby={hintId}
            disabled={uploading}
            onChange={onChange}
          />
          <Icon icon={icons.upload} />
          <span className="featured-image__action" aria-hidden="true">
            {url ? 'Replace image' : 'Choose an image'}
          </span>
        </div>
      </div>
      <p className="blog-field__hint" id={hintId} aria-live="polite">
        {uploading ? (
          <span className="featured-image__uploading">
            <span className="spinner spinner-sm" aria-hidden="true" />
            Uploading...
          </span>
        ) : (
          `JPEG, PNG, GIF or WebP, up to ${MAX_UPLOAD_MB} MB. Shown at the top of the article and in the list.`
        )}
      </p>
    </div>
  );
}
