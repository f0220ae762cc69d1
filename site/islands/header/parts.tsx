/** Pieces the header bar and the mobile menu both show: the brand, the user and the credits. */
import { useState } from 'react';
import type { PublicUser } from '../../../shared/api/auth.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatCredits, formatNumber } from '../../lib/format.ts';
import * as icons from '../../lib/icons/index.ts';
import { BRAND } from '../../lib/site.ts';
import { signOut } from '../../stores/auth.ts';
import Icon, { LogoMark } from '../shared/Icon.tsx';

/** Spec 2: name, otherwise the part of the email before the at-sign. */
export function displayName(user: PublicUser): string {
  return user.name?.trim() || user.email.split('@')[0] || user.email;
}

/** Path of the current page is `href` (for aria-current). */
export function isCurrent(path: string | undefined, href: string): boolean {
  return path !== undefined && path === href;
}

/** The brand link home: logo mark and name. */
export function Brand({ locale, onClick }: { locale: Locale; onClick?: () => void }) {
  return (
    <a className="brand" href={localizePath('/', locale)} onClick={onClick}>
      <LogoMark />
      <span>{BRAND}</span>
    </a>
  );
}

/** Avatar: picture, else avatar_url, else a generic person icon (spec 2). */
export function Avatar({ user, large = false }: { user: PublicUser; large?: boolean }) {
  const src = user.picture || user.avatar_url || null;
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  return (
    <span className={large ? 'avatar avatar--lg' : 'avatar'}>
      {src && failedSrc !== src ? (
        <img
          src={src}
          alt=""
          width={large ? 44 : 32}
          height={large ? 44 : 32}
          // Google-hosted avatars refuse requests that carry a referrer.
          referrerPolicy="no-referrer"
          onError={() => setFailedSrc(src)}
        />
      ) : (
        <Icon icon={icons.person} />
      )}
    </span>
  );
}

/** The large avatar with the user's name and email (account menu, mobile menu). */
export function AccountIdentity({ user }: { user: PublicUser }) {
  return (
    <>
      <Avatar user={user} large />
      <div className="account-summary__text">
        <p className="account-summary__name">{displayName(user)}</p>
        <p className="account-summary__email">{user.email}</p>
      </div>
    </>
  );
}

interface CreditsPillProps {
  credits: number;
  locale: Locale;
  testId?: string;
  title?: string;
  onClick?: () => void;
}

/** The balance, linking to the pricing page to buy more. */
export function CreditsPill({ credits, locale, testId, title, onClick }: CreditsPillProps) {
  return (
    <a
      className="credits-pill"
      href={localizePath('/pricing', locale)}
      data-testid={testId}
      aria-label={formatCredits(credits, locale)}
      title={title}
      onClick={onClick}
    >
      <Icon icon={icons.coin} />
      <span aria-hidden="true">{formatNumber(credits, locale)}</span>
    </a>
  );
}

/**
 * The Sign out item of both menus, busy while the server call runs. On success the page navigates
 * away; on failure (logged) the menu stays open (spec 8).
 */
export function SignOutButton({ className, locale }: { className: string; locale: Locale }) {
  const [signingOut, setSigningOut] = useState(false);
  const onSignOut = async () => {
    setSigningOut(true);
    const signedOut = await signOut();
    if (!signedOut) setSigningOut(false);
  };
  return (
    <button
      type="button"
      className={className}
      onClick={onSignOut}
      disabled={signingOut}
      aria-busy={signingOut}
    >
      <Icon icon={icons.signOut} />
      {m.header_sign_out(locale)}
    </button>
  );
}
