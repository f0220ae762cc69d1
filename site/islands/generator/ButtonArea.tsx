/**
 * The generator's button area (spec 2 "Button area"): the login line, the not-enough-credits
 * line, or the Generate Video button. With options chosen (issue 35) the button names their
 * price, the credit check uses it, and a combination no video service can make is explained
 * here (the quote's message) while the button stays disabled.
 */
import type { Locale } from '../../i18n/locales.ts';
import { localizePath } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import * as icons from '../../lib/icons/index.ts';
import { formatCredits, formatNumber, textAround } from '../../lib/format.ts';
import LoadingScreen from '../LoadingScreen.tsx';
import Icon from '../shared/Icon.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import type { QuoteState } from './use-quote.ts';

interface ButtonAreaProps {
  ready: boolean;
  signedIn: boolean;
  credits: number;
  busy: boolean;
  /** What the current choice costs. */
  price: number;
  /** Options are chosen: the button says the price (the spec's text otherwise). */
  priced: boolean;
  quote: QuoteState;
  locale: Locale;
}

export default function ButtonArea({
  ready,
  signedIn,
  credits,
  busy,
  price,
  priced,
  quote,
  locale,
}: ButtonAreaProps) {
  if (!ready) {
    return <LoadingScreen variant="inline" className="gen-actions__placeholder" locale={locale} />;
  }
  if (!signedIn) {
    return (
      <p className="gen-credit-hint" data-testid="credit-hint">
        <span>{m.generator_login_prompt(locale)}</span>
        <SignInLink className="btn btn-primary" locale={locale}>
          {m.generator_login(locale)}
        </SignInLink>
      </p>
    );
  }
  if (credits < price) {
    return (
      <p className="gen-credit-hint gen-credit-hint--warn" data-testid="credit-hint">
        <span>
          {m.generator_not_enough_credits(locale, {
            have: formatNumber(credits, locale),
            cost: formatNumber(price, locale),
          })}
        </span>
        <a className="btn btn-primary" href={localizePath('/pricing', locale)}>
          {m.generator_buy_credits(locale)}
        </a>
      </p>
    );
  }
  const refused = quote.status === 'refused';
  // The price is set apart (it keeps together when the label wraps on a phone).
  const [before, after] = textAround((slot) =>
    m.generator_generate_video_price(locale, { credits: slot }),
  );
  const label = busy ? (
    m.generator_generating_button(locale)
  ) : priced ? (
    <span>
      {before}
      <span className="gen-price">{formatCredits(price, locale)}</span>
      {after}
    </span>
  ) : (
    m.generator_generate_video(locale)
  );
  return (
    <div className="gen-actions__ready">
      {refused && (
        <p
          className="gen-alert gen-quote"
          id="gen-quote-refusal"
          role="alert"
          data-testid="option-unavailable"
        >
          {quote.message}
        </p>
      )}
      <button
        type="submit"
        className={`btn btn-primary btn-lg btn-block${priced ? ' gen-generate--priced' : ''}`}
        disabled={busy || refused}
        aria-busy={busy}
        aria-describedby={refused ? 'gen-quote-refusal' : undefined}
        data-testid="generate-button"
        data-price={price}
      >
        {busy ? (
          <span className="spinner spinner-sm" aria-hidden="true" />
        ) : (
          <Icon icon={icons.spark} />
        )}
        {label}
      </button>
      <p className="gen-balance">
        {m.generator_balance(locale)}
        <strong>{formatCredits(credits, locale)}</strong>
      </p>
    </div>
  );
}
