/**
 * The Advanced panel's second upload (issue 35): in image mode the last frame (one image the
 * video ends on), in text mode the reference images (up to three, kept the same across clips).
 * Each chosen image shows as a thumbnail with a Remove button; the label adds more.
 */
import { useRef, type ChangeEvent } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import { imageProblem, type ImageChoice } from './ImageUpload.tsx';

interface ExtraImagesProps {
  id: string;
  label: string;
  /** How the image changes the price ("+4 credits"), if it does. */
  price: string | null;
  hint: string;
  /** How many images the field takes (1: a replace, more: an add). */
  max: number;
  images: ImageChoice[];
  onChange: (images: ImageChoice[]) => void;
  /** A file that cannot be used, with the reason (shown by the form's alert). */
  onReject: (message: string) => void;
  testId: string;
  locale: Locale;
}

export default function ExtraImages({
  id,
  label,
  price,
  hint,
  max,
  images,
  onChange,
  onReject,
  testId,
  locale,
}: ExtraImagesProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const room = max - images.length;

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    // Let the same file be chosen again after it was removed.
    event.target.value = '';
    const added: ImageChoice[] = [];
    for (const file of files) {
      const problem = imageProblem(file, locale);
      if (problem) {
        onReject(problem);
        return;
      }
      added.push({ file, previewUrl: URL.createObjectURL(file) });
    }
    // One image replaces the one there; more fill the free places, the rest are left out.
    const next = max === 1 ? added.slice(0, 1) : [...images, ...added].slice(0, max);
    onChange(next);
  };

  const remove = (index: number) => {
    onChange(images.filter((_, i) => i !== index));
    inputRef.current?.focus();
  };

  return (
    <div className="gen-field" data-testid={testId}>
      <span className="gen-label" id={`${id}-label`}>
        {label}
        {price && <span className="gen-label__price"> {price}</span>}
      </span>
      {images.length > 0 && (
        <ul className="gen-extra__list" role="list">
          {images.map((image, index) => (
            <li key={image.previewUrl} className="gen-extra__item">
              <img src={image.previewUrl} alt="" />
              <span className="gen-extra__name" title={image.file.name}>
                {image.file.name}
              </span>
              <button
                type="button"
                className="btn btn-secondary gen-extra__remove"
                onClick={() => remove(index)}
                aria-label={m.generator_image_remove_label(locale, { name: image.file.name })}
              >
                {m.generator_image_remove(locale)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="gen-extra__add">
        <input
          ref={inputRef}
          id={id}
          className="gen-upload__input"
          type="file"
          accept="image/*"
          multiple={max > 1}
          disabled={max > 1 && room <= 0}
          aria-labelledby={`${id}-label ${id}-action`}
          aria-describedby={`${id}-hint`}
          onChange={onInput}
        />
        <label
          htmlFor={id}
          className={`btn btn-secondary gen-extra__button${max > 1 && room <= 0 ? ' is-disabled' : ''}`}
        >
          <Icon icon={icons.upload} />
          <span id={`${id}-action`}>
            {max === 1 && images.length > 0
              ? m.generator_image_replace(locale)
              : m.generator_add_image(locale)}
          </span>
        </label>
      </div>
      <p className="gen-hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
}
