/**
 * Pieces the header bar and the mobile menu both show: the brand, the user and the credits.
 * Rendered once at build time with no user: the header's script (header.ts) fills in the
 * signed-in user's name, email, picture and credits where the `data-user-*` and `data-credits*`
 * hooks are, and shows what is `hidden` here.
 */
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits, formatNumber } from '../../lib/format.ts';
import * as icons from '../../lib/icons/index.ts';
import { BRAND } from '../../lib/site.ts';
import { LOGIN_PATH } from '../../stores/google-sign-in.ts';
import Icon, { LogoMark } from '../shared/Icon.tsx';

/** Path of the current page is `href` (for aria-current). */
export function isCurrent(path: string | undefined, href: string): boolean {
  return path !== undefined && path === href;
}

/** The brand link home: logo mark and name. */
export function Brand({ locale }: { locale: Locale }) {
  return (
    <a className="brand" href={localizePath('/', locale)}>
      <LogoMark />
      <span>{BRAND}</span>
    </a>
  );
}

/**
 * The avatar: the user's picture once the script sets one (and while it loads), else the generic
 * person icon (spec 2).
 */
export function Avatar({ large = false }: { large?: boolean }) {
  const size = large ? 44 : 32;
  return (
    <span className={large ? 'avatar avatar--lg' : 'avatar'} data-avatar="">
      {/* Google-hosted avatars refuse requests that carry a referrer. */}
      <img alt="" width={size} height={size} referrerPolicy="no-referrer" hidden />
      <Icon icon={icons.person} />
    </span>
  );
}

/** The large avatar with the user's name and email (account menu, mobile menu). */
export function AccountIdentity() {
  return (
    <>
      <Avatar large />
      <div className="account-summary__text">
        <p className="account-summary__name" data-user-name="" />
        <p className="account-summary__email" data-user-email="" />
      </div>
    </>
  );
}

interface CreditsPillProps {
  locale: Locale;
  testId?: string;
  title?: string;
}

/** The balance, linking to the pricing page to buy more; the script keeps the count. */
export function CreditsPill({ locale, testId, title }: CreditsPillProps) {
  return (
    <a
      className="credits-pill"
      href={localizePath('/pricing', locale)}
      data-testid={testId}
      data-credits=""
      aria-label={formatCredits(0, locale)}
      title={title}
    >
      <Icon icon={icons.coin} />
      <span aria-hidden="true" data-credits-count="">
        {formatNumber(0, locale)}
      </span>
    </a>
  );
}

/**
 * The Sign out item of both menus. The script makes it busy while the server call runs; on
 * success the page navigates away, on failure (logged) the menu stays open (spec 8).
 */
export function SignOutButton({
  className,
  locale,
  signedInOnly = false,
}: {
  className: string;
  locale: Locale;
  /** Hidden until header.ts has a signed-in user (where no signed-in container holds it). */
  signedInOnly?: boolean;
}) {
  return (
    <button
      type="button"
      className={className}
      data-sign-out=""
      {...(signedInOnly ? { hidden: true, 'data-signed-in': '' } : {})}
    >
      <Icon icon={icons.signOut} />
      {m.header_sign_out(locale)}
    </button>
  );
}

/**
 * The Login link of the bar and the menu: shown while no session is stored (the layout's first
 * script and then header.ts say so on `<html data-session>`). A real link to /login, so it works
 * before any script; once the page offers Google's popup, header.ts opens that instead.
 */
export function LoginLink({ className, locale }: { className: string; locale: Locale }) {
  return (
    <a className={className} href={localizePath(LOGIN_PATH, locale)} data-sign-in="">
      {m.header_login(locale)}
    </a>
  );
}
