/**
 * The pricing page's status banner (spec 2 Pricing, 8 Payment: banners clear after 3-5 s).
 * Both live regions always exist, so a new message is announced: status for news, alert for
 * errors. The timer pauses while the pointer or focus is on the banner.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $banner, clearBanner, type Banner } from '../../stores/subscription.ts';

const HYDRATE = { ssr: 'initial' } as const;

function BannerBox({ banner }: { banner: Banner }) {
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
        {banner.message}
        {banner.loginLink && (
          <>
            {' '}
            <a href="/login" className="pricing-banner__link">
              Log in
            </a>
          </>
        )}
      </p>
      <button
        type="button"
        className="pricing-banner__close"
        aria-label="Dismiss message"
        onClick={() => clearBanner(id)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d="M6 6l12 12M18 6L6 18"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      </button>
    </div>
  );
}

function BannerIcon({ tone }: { tone: Banner['tone'] }) {
  return (
    <svg className="pricing-banner__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
      {tone === 'success' ? (
        <path
          d="M7.5 12.5l3 3 6-6.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      ) : tone === 'error' ? (
        <path d="M12 7v6M12 16.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      ) : (
        <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
  );
}

export default function StatusBanner() {
  const banner = useStore($banner, HYDRATE);
  const isError = banner?.tone === 'error';

  return (
    <div className="pricing-banner-region">
      <div role="status" aria-live="polite">
        {banner && !isError && <BannerBox key={banner.id} banner={banner} />}
      </div>
      <div role="alert">{banner && isError && <BannerBox key={banner.id} banner={banner} />}</div>
    </div>
  );
}
