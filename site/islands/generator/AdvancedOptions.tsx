/**
 * The inside of the generator's Advanced disclosure (issue 35 item 2): shape, resolution, speed,
 * negative prompt, seed, and the second upload of the mode (last frame in image mode, reference
 * images in text mode). Each choice that changes the price says by how much (from the one price
 * table); an extension keeps its video's shape and resolution and takes no images.
 */
import type { ReactNode } from 'react';
import {
  MAX_NEGATIVE_PROMPT_LENGTH,
  MAX_REFERENCE_IMAGES,
  MAX_SEED,
  PRICE_TABLE,
  type AspectRatio,
  type Resolution,
  type Tier,
} from '../../../shared/video-options.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits, formatNumber } from '../../lib/format.ts';
import ExtraImages from './ExtraImages.tsx';
import type { GeneratorMode } from './generation-rules.ts';
import type { ImageChoice } from './ImageUpload.tsx';
import type { OptionChoice } from './video-choice.ts';

export interface AdvancedOptionsProps {
  idPrefix: string;
  mode: GeneratorMode;
  choice: OptionChoice;
  onChoice: (next: OptionChoice) => void;
  /** Continuing a video: no shape, resolution or images to choose. */
  extending: boolean;
  lastFrame: ImageChoice | null;
  onLastFrame: (image: ImageChoice | null) => void;
  references: ImageChoice[];
  onReferences: (images: ImageChoice[]) => void;
  onReject: (message: string) => void;
  /** The seed as typed is not one the API takes. */
  seedInvalid: boolean;
  locale: Locale;
}

/** "+5 credits", "−9 credits"; nothing for an option that costs the same. */
function priceChange(credits: number, locale: Locale): string | null {
  if (credits === 0) return null;
  const sign = credits > 0 ? '+' : '−';
  return `${sign}${formatCredits(Math.abs(credits), locale)}`;
}

interface Choice<T extends string> {
  value: T;
  label: string;
  credits: number;
}

/** A row of radio buttons drawn as segments (arrow keys move between them, natively). */
function Segments<T extends string>({
  name,
  legend,
  choices,
  value,
  onChange,
  hint,
  locale,
}: {
  name: string;
  legend: string;
  choices: Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  hint?: ReactNode;
  locale: Locale;
}) {
  return (
    <fieldset className="gen-option" data-testid={`option-${name}`}>
      <legend className="gen-label">{legend}</legend>
      <div className="gen-segments">
        {choices.map((choice) => {
          const change = priceChange(choice.credits, locale);
          return (
            <label key={choice.value} className="gen-segment">
              <input
                type="radio"
                name={name}
                value={choice.value}
                checked={value === choice.value}
                onChange={() => onChange(choice.value)}
              />
              <span className="gen-segment__label">{choice.label}</span>
              {change && <span className="gen-segment__price">{change}</span>}
            </label>
          );
        })}
      </div>
      {hint && <p className="gen-hint">{hint}</p>}
    </fieldset>
  );
}

export default function AdvancedOptions({
  idPrefix,
  mode,
  choice,
  onChoice,
  extending,
  lastFrame,
  onLastFrame,
  references,
  onReferences,
  onReject,
  seedInvalid,
  locale,
}: AdvancedOptionsProps) {
  const add = PRICE_TABLE.add;
  const set = <K extends keyof OptionChoice>(key: K, value: OptionChoice[K]) =>
    onChoice({ ...choice, [key]: value });
  const negativeId = `${idPrefix}-negative`;
  const seedId = `${idPrefix}-seed`;

  return (
    <div className="gen-advanced__body">
      {extending ? (
        <p className="gen-hint" data-testid="extend-shape-note">
          {m.generator_extend_shape_note(locale)}
        </p>
      ) : (
        <>
          <Segments<AspectRatio>
            name="aspect_ratio"
            legend={m.generator_aspect_ratio(locale)}
            value={choice.aspectRatio}
            onChange={(value) => set('aspectRatio', value)}
            choices={[
              {
                value: '16:9',
                label: m.generator_aspect_landscape(locale),
                credits: add.aspect_ratio['16:9'],
              },
              {
                value: '9:16',
                label: m.generator_aspect_vertical(locale),
                credits: add.aspect_ratio['9:16'],
              },
            ]}
            locale={locale}
          />
          <Segments<Resolution>
            name="resolution"
            legend={m.generator_resolution(locale)}
            value={choice.resolution}
            onChange={(value) => set('resolution', value)}
            choices={[
              { value: '720p', label: '720p', credits: add.resolution['720p'] },
              { value: '1080p', label: '1080p', credits: add.resolution['1080p'] },
            ]}
            locale={locale}
          />
        </>
      )}
      <Segments<Tier>
        name="tier"
        legend={m.generator_tier(locale)}
        value={choice.tier}
        onChange={(value) => set('tier', value)}
        choices={[
          {
            value: 'standard',
            label: m.generator_tier_standard(locale),
            credits: add.tier.standard,
          },
          { value: 'fast', label: m.generator_tier_fast(locale), credits: add.tier.fast },
        ]}
        hint={m.generator_tier_hint(locale)}
        locale={locale}
      />

      <div className="gen-field">
        <label htmlFor={negativeId} className="gen-label">
          {m.generator_negative_prompt(locale)}
        </label>
        <textarea
          id={negativeId}
          className="input gen-textarea gen-textarea--short"
          name="negative_prompt"
          rows={3}
          maxLength={MAX_NEGATIVE_PROMPT_LENGTH}
          placeholder={m.generator_negative_prompt_placeholder(locale)}
          value={choice.negativePrompt}
          onChange={(event) => set('negativePrompt', event.target.value)}
          aria-describedby={`${negativeId}-count`}
          data-testid="negative-prompt"
        />
        <p className="gen-counter" id={`${negativeId}-count`}>
          <span className="sr-only">{m.generator_characters_used(locale)}</span>
          {formatNumber(choice.negativePrompt.length, locale)}/
          {formatNumber(MAX_NEGATIVE_PROMPT_LENGTH, locale)}
        </p>
      </div>

      <div className="gen-field">
        <label htmlFor={seedId} className="gen-label">
          {m.generator_seed(locale)}
        </label>
        <div className="gen-seed">
          <input
            id={seedId}
            className="input gen-seed__input"
            name="seed"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            placeholder={m.generator_seed_random(locale)}
            value={choice.seed}
            onChange={(event) => set('seed', event.target.value.replace(/\s/g, ''))}
            aria-invalid={seedInvalid || undefined}
            aria-describedby={`${seedId}-hint`}
            data-testid="seed"
          />
          {choice.seed !== '' && (
            <button
              type="button"
              className="btn btn-secondary gen-seed__random"
              onClick={() => {
                set('seed', '');
                document.getElementById(seedId)?.focus();
              }}
              data-testid="seed-random"
            >
              {m.generator_seed_use_random(locale)}
            </button>
          )}
        </div>
        <p className={`gen-hint${seedInvalid ? ' gen-hint--error' : ''}`} id={`${seedId}-hint`}>
          {seedInvalid
            ? m.generator_seed_invalid(locale, { max: formatNumber(MAX_SEED, locale) })
            : m.generator_seed_hint(locale)}
        </p>
      </div>

      {!extending && mode === 'image' && (
        <ExtraImages
          id={`${idPrefix}-last-frame`}
          label={m.generator_last_frame(locale)}
          price={priceChange(add.last_frame, locale)}
          hint={m.generator_last_frame_hint(locale)}
          max={1}
          images={lastFrame ? [lastFrame] : []}
          onChange={(images) => onLastFrame(images[0] ?? null)}
          onReject={onReject}
          testId="last-frame"
          locale={locale}
        />
      )}
      {!extending && mode === 'text' && (
        <ExtraImages
          id={`${idPrefix}-references`}
          label={m.generator_reference_images(locale, { max: MAX_REFERENCE_IMAGES })}
          price={priceChange(add.reference_images, locale)}
          hint={m.generator_reference_images_hint(locale)}
          max={MAX_REFERENCE_IMAGES}
          images={references}
          onChange={onReferences}
          onReject={onReject}
          testId="reference-images"
          locale={locale}
        />
      )}
    </div>
  );
}
