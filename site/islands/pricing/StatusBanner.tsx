/**
 * The pricing page's status banner (spec 2 Pricing, 8 Payment: banners clear after 3-5 s).
 * Both live regions always exist, so a new message is announced: status for news, alert for
 * errors. The timer pauses while the pointer or focus is on the banner.
 */
import { useEffect, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import { $banner, clearBanner, type Banner } from '../../stores/subscription.ts';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';

function BannerBox({ banner, locale }: { banner: Banner; locale: Locale }) {
  const [paused, setPaused] = useState(false);
  const { id, durationMs } = banner;

  useEffect(() => {
    if (durationMs === null || paused) return;
    const timer = window.setTimeout(() => clearBanner(id), durationMs);
    return () => window.clearTimeout(timer);
  }, [id, durationMs, paused]);

  return (
    <div
      className={`pricing-banner pricing-banner--${banner.tone}`}
      data-testid="pricing-banner"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPaused(false);
      }}
    >
      {banner.durationMs === null ? (
        <span className="spinner spinner-sm" aria-hidden="true" />
      ) : (
        <BannerIcon tone={banner.tone} />
      )}
      <p className="pricing-banner__message" lang={banner.lang}>
        {banner.message(locale)}
        {banner.loginLink && (
          <>
            {' '}
            <SignInLink className="pricing-banner__link" locale={locale}>
              {m.pricing_log_in(locale)}
            </SignInLink>
          </>
        )}
      </p>
      <button
        type="button"
        className="pricing-banner__close"
        aria-label={m.pricing_dismiss(locale)}
        onClick={() => clearBanner(id)}
      >
        <Icon icon={icons.close} />
      </button>
    </div>
  );
}

const BANNER_ICONS = {
  success: icons.circleCheck,
  error: icons.circleError,
  info: icons.circleInfo,
};

function BannerIcon({ tone }: { tone: Banner['tone'] }) {
  return <Icon icon={BANNER_ICONS[tone]} className="pricing-banner__icon" />;
}

/** The banner's messages are in the page's language (the stores hold them as messages). */
export default function StatusBanner({ locale }: { locale: Locale }) {
  const banner = useHydratedStore($banner);
  const isError = banner?.tone === 'error';

  return (
    <div className="pricing-banner-region">
      <div role="status" aria-live="polite">
        {banner && !isError && <BannerBox key={banner.id} banner={banner} locale={locale} />}
      </div>
      <div role="alert">
        {banner && isError && <BannerBox key={banner.id} banner={banner} locale={locale} />}
      </div>
    </div>
  );
}
