/** Site header (spec 2 "Header"): live because it reflects the signed-in user and credits. */
import { useStore } from '@nanostores/react';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { PublicUser } from '../../server/contracts/auth.ts';
import { BRAND, GENERATOR_PATH, generatorHref } from '../lib/site.ts';
import { $authReady, $authToken, $user, initAuth, signOut } from '../stores/auth.ts';
import { $credits } from '../stores/credits.ts';
import Icon from './shared/Icon.tsx';

/**
 * Hydrate with the stores' initial values, which is what the pre-rendered HTML shows; another
 * island may already have restored the session, and hydrating with that would mismatch.
 */
const HYDRATE = { ssr: 'initial' } as const;

interface HeaderProps {
  /** Path of the current page, to mark the active link without reading `location` at build time. */
  path?: string;
}

/** Spec 9: scroll threshold 50 px. */
const SCROLL_THRESHOLD_PX = 50;
const MOBILE_QUERY = '(max-width: 768px)';

// ---------- Small hooks ----------

function subscribeToScroll(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/** True once the page has scrolled past the threshold; false while pre-rendering. */
function useScrolledPastThreshold(): boolean {
  return useSyncExternalStore(
    subscribeToScroll,
    () => window.scrollY > SCROLL_THRESHOLD_PX,
    () => false,
  );
}

/** Close a dropdown on an outside click, on Escape (focus back to its button) and when focus leaves. */
function useDismiss(
  open: boolean,
  close: () => void,
  containerRef: RefObject<HTMLElement | null>,
  buttonRef: RefObject<HTMLButtonElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    const container = containerRef.current;
    const onPointerDown = (event: PointerEvent) => {
      if (container && !container.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      buttonRef.current?.focus();
    };
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && container && !container.contains(next)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    container?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      container?.removeEventListener('focusout', onFocusOut);
    };
  }, [open, close, containerRef, buttonRef]);
}

/** ArrowDown on a closed dropdown button opens it and moves focus to the first item. */
function focusFirstItem(panel: HTMLElement | null): void {
  // The panel is un-hidden on the next render; wait for it.
  requestAnimationFrame(() => panel?.querySelector<HTMLElement>('a, button')?.focus());
}

// ---------- Helpers ----------

function displayName(user: PublicUser): string {
  // Spec 2: name, otherwise the part of the email before the at-sign.
  return user.name?.trim() || user.email.split('@')[0] || user.email;
}

function creditsLabel(credits: number): string {
  return `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;
}

function isCurrent(path: string | undefined, href: string): boolean {
  return path !== undefined && path === href;
}

// ---------- Icons (decorative: every use has a text label nearby) ----------

function LogoMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="brand-mark-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#9d91ff" />
          <stop offset="1" stopColor="#6c5ce7" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#brand-mark-gradient)" />
      <path d="M12 9.5v13l10.5-6.5z" fill="#fff" />
    </svg>
  );
}

const ChevronIcon = () => (
  <Icon className="chevron">
    <path d="m6 9 6 6 6-6" />
  </Icon>
);
const TextIcon = () => (
  <Icon>
    <path d="M4 7V5h16v2M9 19h6M12 5v14" />
  </Icon>
);
const ImageIcon = () => (
  <Icon>
    <rect x="3" y="3" width="18" height="18" rx="2" />
    <circle cx="9" cy="9" r="2" />
    <path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21" />
  </Icon>
);
const SignOutIcon = () => (
  <Icon>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
  </Icon>
);
const MenuIcon = () => (
  <Icon>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);
const CloseIcon = () => (
  <Icon>
    <path d="M18 6 6 18M6 6l12 12" />
  </Icon>
);
const PersonIcon = () => (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </Icon>
);

function CoinIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill="currentColor" />
      <path
        d="M12 7.5v9M14.2 9.6h-3a1.4 1.4 0 0 0 0 2.8h1.6a1.4 1.4 0 0 1 0 2.8H9.8"
        fill="none"
        stroke="#8a6512"
        strokeWidth="1.5"
        strokeLinecap="round"
      />
    </svg>
  );
}

// ---------- Pieces ----------

/** Avatar: picture, else avatar_url, else a generic person icon (spec 2). */
function Avatar({ user, large = false }: { user: PublicUser; large?: boolean }) {
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
        <PersonIcon />
      )}
    </span>
  );
}

function CreditsPill({ credits }: { credits: number }) {
  return (
    <a
      className="credits-pill"
      href="/pricing"
      data-testid="header-credits"
      aria-label={creditsLabel(credits)}
      title="Your credits: buy more on the pricing page"
    >
      <CoinIcon />
      <span aria-hidden="true">{credits.toLocaleString('en-US')}</span>
    </a>
  );
}

function AiToolsDropdown({ path }: { path?: string }) {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const containerRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLUListElement>(null);
  const panelId = useId();
  useDismiss(open, close, containerRef, buttonRef);

  const onButtonKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
      focusFirstItem(panelRef.current);
    }
  };

  return (
    <li className="dropdown" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="nav-link"
        aria-expanded={open}
        aria-controls={panelId}
        aria-current={isCurrent(path, GENERATOR_PATH) ? 'page' : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        AI Tools
        <ChevronIcon />
      </button>
      <ul id={panelId} ref={panelRef} className="dropdown__panel" hidden={!open}>
        <li>
          <a className="dropdown__item" href={generatorHref('text')}>
            <TextIcon />
            <span>
              Text to Video
              <small>Describe a scene in words</small>
            </span>
          </a>
        </li>
        <li>
          <a className="dropdown__item" href={generatorHref('image')}>
            <ImageIcon />
            <span>
              Image to Video
              <small>Bring a photo to life</small>
            </span>
          </a>
        </li>
      </ul>
    </li>
  );
}

function AccountMenu({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  useDismiss(open, close, containerRef, buttonRef);
  const name = displayName(user);

  const onSignOut = async () => {
    setSigningOut(true);
    // On success the page navigates away; on failure (logged) the menu stays open (spec 8).
    const signedOut = await signOut();
    if (!signedOut) setSigningOut(false);
  };

  const onButtonKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
      focusFirstItem(panelRef.current);
    }
  };

  return (
    <div className="dropdown account-menu" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-button"
        aria-label="Account menu"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <Avatar user={user} />
        <span className="account-button__name">{name}</span>
        <ChevronIcon />
      </button>
      <div
        id={panelId}
        ref={panelRef}
        className="dropdown__panel dropdown__panel--end"
        hidden={!open}
      >
        <div className="account-summary">
          <Avatar user={user} large />
          <div className="account-summary__text">
            <p className="account-summary__name">{name}</p>
            <p className="account-summary__email">{user.email}</p>
          </div>
        </div>
        <button
          type="button"
          className="dropdown__item"
          onClick={onSignOut}
          disabled={signingOut}
          aria-busy={signingOut}
        >
          <SignOutIcon />
          Sign out
        </button>
      </div>
    </div>
  );
}

interface NavLink {
  href: string;
  label: string;
}

/** Links after the AI Tools group; History and Blog Admin depend on the user (spec 2, 6). */
function trailingLinks(user: PublicUser | null): NavLink[] {
  const links: NavLink[] = [
    { href: '/pricing', label: 'Pricing' },
    { href: '/blog', label: 'Blog' },
  ];
  if (user) links.push({ href: '/video-history', label: 'History' });
  if (user?.can_manage_blog) links.push({ href: '/blog-admin', label: 'Blog Admin' });
  return links;
}

interface MobileMenuProps {
  id: string;
  open: boolean;
  onClose: () => void;
  path?: string;
  ready: boolean;
  user: PublicUser | null;
  credits: number;
}

/** Full-screen menu for small screens: a modal dialog holding its own close button. */
function MobileMenu({ id, open, onClose, path, ready, user, credits }: MobileMenuProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [signingOut, setSigningOut] = useState(false);
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    // Lock page scroll behind the full-screen menu.
    const root = document.documentElement;
    const previousOverflow = root.style.overflow;
    root.style.overflow = 'hidden';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        onClose();
        return;
      }
      if (event.key !== 'Tab' || !dialogRef.current) return;
      // Keep Tab inside the dialog (aria-modal promises the rest of the page is out of reach).
      const focusable = [
        ...dialogRef.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'),
      ];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    // The menu is for small screens only; growing past the breakpoint closes it.
    const media = window.matchMedia(MOBILE_QUERY);
    const onMediaChange = () => {
      if (!media.matches) onClose();
    };
    media.addEventListener('change', onMediaChange);
    return () => {
      root.style.overflow = previousOverflow;
      document.removeEventListener('keydown', onKeyDown);
      media.removeEventListener('change', onMediaChange);
    };
  }, [open, onClose]);

  const onSignOut = async () => {
    setSigningOut(true);
    const signedOut = await signOut();
    if (!signedOut) setSigningOut(false);
  };

  const link = (href: string, label: string, icon?: ReactNode) => (
    <li key={href}>
      <a
        className="mobile-menu__link"
        href={href}
        aria-current={isCurrent(path, href) ? 'page' : undefined}
        onClick={onClose}
      >
        {icon}
        {label}
      </a>
    </li>
  );

  return (
    <div
      id={id}
      ref={dialogRef}
      className="mobile-menu"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      hidden={!open}
    >
      <div className="container mobile-menu__top">
        <a className="brand" href="/" onClick={onClose}>
          <LogoMark />
          <span>{BRAND}</span>
        </a>
        <h2 id={titleId} className="sr-only">
          Menu
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="menu-toggle"
          aria-label="Close menu"
          aria-expanded="true"
          aria-controls={id}
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      <div className="container mobile-menu__body">
        {ready && user && (
          <div className="mobile-menu__account">
            <Avatar user={user} large />
            <div className="account-summary__text">
              <p className="account-summary__name">{displayName(user)}</p>
              <p className="account-summary__email">{user.email}</p>
            </div>
            <a
              className="credits-pill"
              href="/pricing"
              aria-label={creditsLabel(credits)}
              onClick={onClose}
            >
              <CoinIcon />
              <span aria-hidden="true">{credits.toLocaleString('en-US')}</span>
            </a>
          </div>
        )}
        <nav aria-label="Main">
          <ul className="mobile-menu__list">
            {link('/', 'Home')}
            <li>
              <p className="mobile-menu__group-label" id={`${id}-tools`}>
                AI Tools
              </p>
              <ul className="mobile-menu__list mobile-menu__nested" aria-labelledby={`${id}-tools`}>
                {link(generatorHref('text'), 'Text to Video', <TextIcon />)}
                {link(generatorHref('image'), 'Image to Video', <ImageIcon />)}
              </ul>
            </li>
            {trailingLinks(ready ? user : null).map(({ href, label }) => link(href, label))}
          </ul>
        </nav>
        {ready && (
          <div className="mobile-menu__footer">
            {user ? (
              <button
                type="button"
                className="btn btn-secondary btn-block"
                onClick={onSignOut}
                disabled={signingOut}
                aria-busy={signingOut}
              >
                <SignOutIcon />
                Sign out
              </button>
            ) : (
              <a className="btn btn-primary btn-block" href="/login">
                Login
              </a>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

// ---------- Header ----------

export default function Header({ path }: HeaderProps) {
  const ready = useStore($authReady, HYDRATE);
  const storedUser = useStore($user, HYDRATE);
  const token = useStore($authToken, HYDRATE);
  const credits = useStore($credits, HYDRATE);
  const scrolled = useScrolledPastThreshold();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  // Signed in means both halves of the session are present (spec 4).
  const user = ready && token ? storedUser : null;

  useEffect(() => {
    initAuth();
  }, []);

  const closeMenu = useCallback(() => {
    setMenuOpen(false);
    // The open button is back once the dialog hides; return focus to it.
    requestAnimationFrame(() => toggleRef.current?.focus());
  }, []);

  return (
    <>
      <header className={scrolled ? 'site-header is-scrolled' : 'site-header'}>
        <div className="container site-header__inner">
          <a className="brand" href="/">
            <LogoMark />
            <span>{BRAND}</span>
          </a>

          <nav className="site-nav" aria-label="Main">
            <ul className="site-nav__list">
              <li>
                <a
                  className="nav-link"
                  href="/"
                  aria-current={isCurrent(path, '/') ? 'page' : undefined}
                >
                  Home
                </a>
              </li>
              <AiToolsDropdown path={path} />
              {trailingLinks(user).map(({ href, label }) => (
                <li key={href}>
                  <a
                    className="nav-link"
                    href={href}
                    aria-current={isCurrent(path, href) ? 'page' : undefined}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>

          <div className="site-header__account">
            {!ready ? (
              // Neutral until the stored session is known, so signed-in users never see Login flash.
              <span className="account-placeholder" aria-hidden="true" />
            ) : user ? (
              <>
                <CreditsPill credits={credits} />
                <AccountMenu user={user} />
              </>
            ) : (
              <a className="btn btn-primary" href="/login">
                Login
              </a>
            )}
          </div>

          {!menuOpen && (
            <button
              ref={toggleRef}
              type="button"
              className="menu-toggle"
              aria-label="Open menu"
              aria-expanded="false"
              aria-controls={menuId}
              onClick={() => setMenuOpen(true)}
            >
              <MenuIcon />
            </button>
          )}
        </div>
      </header>
      <MobileMenu
        id={menuId}
        open={menuOpen}
        onClose={closeMenu}
        path={path}
        ready={ready}
        user={user}
        credits={credits}
      />
    </>
  );
}
