/**
 * The image of Image to Video mode (spec 2 "Generator"): any image type, hint 'JPG, PNG, GIF',
 * a preview with a remove button; a file can also be dropped on the box.
 */
import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { MAX_IMAGE_BYTES } from '../../../shared/video.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

export interface ImageChoice {
  file: File;
  /** Object URL of the file for the preview; revoked by whoever drops the choice. */
  previewUrl: string;
}

interface ImageUploadProps {
  id: string;
  image: ImageChoice | null;
  onChange: (image: ImageChoice | null) => void;
  /** A file that cannot be used, with the reason (shown by the form's alert). */
  onReject: (message: string) => void;
  /** Id of the element that describes an error for this field, when there is one. */
  errorId?: string;
  locale: Locale;
}

/** 1536000 → "1.5 MB". */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const MAX_MB = Math.round(MAX_IMAGE_BYTES / (1024 * 1024));

/** Why a file cannot be sent, or null when it can (the server checks again). */
export function imageProblem(file: File, locale: Locale = 'en'): string | null {
  if (!file.type.startsWith('image/')) return m.generator_image_not_image(locale);
  if (file.size > MAX_IMAGE_BYTES) {
    return m.generator_image_too_large(locale, { size: formatBytes(file.size), max: MAX_MB });
  }
  return null;
}

export default function ImageUpload({
  id,
  image,
  onChange,
  onReject,
  errorId,
  locale,
}: ImageUploadProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hintId = `${id}-hint`;

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = imageProblem(file, locale);
    if (problem) {
      onReject(problem);
      return;
    }
    onChange({ file, previewUrl: URL.createObjectURL(file) });
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    choose(event.target.files?.[0]);
    // Let the same file be chosen again after it was removed.
    event.target.value = '';
  };

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const remove = () => {
    onChange(null);
    inputRef.current?.focus();
  };

  return (
    <div className="gen-field">
      <span className="gen-label" id={`${id}-label`}>
        {m.generator_image_label(locale)}
      </span>
      <div
        className={`gen-upload${dragging ? ' is-dragging' : ''}${image ? ' has-image' : ''}`}
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="image-upload"
      >
        <input
          ref={inputRef}
          id={id}
          className="gen-upload__input"
          type="file"
          accept="image/*"
          aria-labelledby={`${id}-label ${id}-action`}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
          onChange={onInputChange}
        />
        {image ? (
          <div className="gen-upload__preview">
            <img src={image.previewUrl} alt={m.generator_image_preview_alt(locale)} />
            <div className="gen-upload__meta">
              <p className="gen-upload__name" title={image.file.name}>
                {image.file.name}
              </p>
              <p className="gen-upload__size">{formatBytes(image.file.size)}</p>
              <div className="gen-upload__actions">
                <label htmlFor={id} className="btn btn-secondary gen-upload__replace">
                  <span id={`${id}-action`}>{m.generator_image_replace(locale)}</span>
                </label>
                <button
                  type="button"
                  className="btn btn-secondary gen-upload__remove"
                  onClick={remove}
                  aria-label={m.generator_image_remove_label(locale, { name: image.file.name })}
                  data-testid="remove-image"
                >
                  {m.generator_image_remove(locale)}
                </button>
              </div>
            </div>
          </div>
        ) : (
          <label htmlFor={id} className="gen-upload__drop">
            <Icon icon={icons.upload} />
            <span className="gen-upload__title" id={`${id}-action`}>
              {m.generator_image_drop(locale)}
            </span>
          </label>
        )}
      </div>
      <p className="gen-hint" id={hintId}>
        {m.generator_image_hint(locale, { max: MAX_MB })}
      </p>
    </div>
  );
}
