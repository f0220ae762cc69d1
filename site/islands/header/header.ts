/**
 * The header's script (see Header.tsx): a module, so it runs before DOMContentLoaded, on the
 * markup the page already shows. It shows the signed-in user and credits (the same stores the
 * islands use), wires the dropdowns, the phone menu, Login (Google's popup where offered) and
 * Sign out, keeps the scrolled style, and then marks the header ready (`data-ready`), replaying
 * a tap made on the AI Tools button before this ran.
 */
import type { PublicUser } from '../../../shared/api/auth.ts';
import { isLocale, type Locale } from '../../i18n/locales.ts';
import { formatCredits, formatNumber } from '../../lib/format.ts';
import { $authReady, $authToken, $user, signOut } from '../../stores/auth.ts';
import { $credits } from '../../stores/credits.ts';
import { startSignIn } from '../../stores/google-sign-in.ts';
import { replayEarlyTap } from '../shared/early-tap.ts';
import { bindDropdown } from './dropdown.ts';
import { googleSignInScope } from './google.ts';
import { bindMobileMenu } from './menu.ts';
import { avatarSource, displayName } from './user.ts';

/** Spec 9: scroll threshold 50 px. */
const SCROLL_THRESHOLD_PX = 50;

const header = document.querySelector<HTMLElement>('.site-header');
const menu = document.querySelector<HTMLElement>('.mobile-menu');
const lang = document.documentElement.lang;
const locale: Locale = isLocale(lang) ? lang : 'en';
/** Every part of the header, the bar and the phone menu. */
const parts = [header, menu].filter((part): part is HTMLElement => part !== null);
const all = <T extends Element>(selector: string): T[] =>
  parts.flatMap((part) => [...part.querySelectorAll<T>(selector)]);

function followScroll(bar: HTMLElement): void {
  const update = () => bar.classList.toggle('is-scrolled', window.scrollY > SCROLL_THRESHOLD_PX);
  window.addEventListener('scroll', update, { passive: true });
  update();
}

/** The avatar's picture, or the person icon when there is none or it fails to load. */
function showAvatar(avatar: HTMLElement, src: string | null): void {
  const img = avatar.querySelector('img');
  const icon = avatar.querySelector('svg');
  if (!img || !icon) return;
  const usePicture = (use: boolean) => {
    img.hidden = !use;
    icon.style.display = use ? 'none' : '';
  };
  img.onerror = () => usePicture(false);
  if (src && img.getAttribute('src') !== src) img.src = src;
  usePicture(Boolean(src));
}

function showUser(user: PublicUser | null): void {
  document.documentElement.dataset.session = user ? 'in' : 'out';
  for (const element of all<HTMLElement>('[data-signed-in], [data-audience]')) {
    const audience = element.dataset.audience;
    element.hidden = !user || (audience === 'editor' && !user.can_manage_blog);
  }
  if (!user) return;
  for (const name of all('[data-user-name]')) name.textContent = displayName(user);
  for (const email of all('[data-user-email]')) email.textContent = user.email;
  for (const avatar of all<HTMLElement>('[data-avatar]')) showAvatar(avatar, avatarSource(user));
}

function showCredits(credits: number): void {
  for (const pill of all('[data-credits]')) {
    pill.setAttribute('aria-label', formatCredits(credits, locale));
    const count = pill.querySelector('[data-credits-count]');
    if (count) count.textContent = formatNumber(credits, locale);
  }
}

/** Login opens Google's popup where the page offers it; otherwise, and with a modifier, /login. */
function onSignInClick(event: MouseEvent): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  if (startSignIn()) event.preventDefault();
}

/** Sign out, busy while the server call runs; on failure (logged) the button is usable again. */
async function onSignOutClick(event: MouseEvent): Promise<void> {
  const button = event.currentTarget as HTMLButtonElement;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  if (await signOut()) return;
  button.disabled = false;
  button.removeAttribute('aria-busy');
}

function followSession(): void {
  const google = googleSignInScope(locale);
  const render = () => {
    // Signed in means both halves of the session are present (spec 4).
    const ready = $authReady.get();
    const user = ready && $authToken.get() ? $user.get() : null;
    if (ready) showUser(user);
    google(ready && !user);
  };
  $authReady.subscribe(render);
  $authToken.subscribe(render);
  $user.subscribe(render);
  // Following the credits also keeps them fresh for a signed-in user (site/stores/credits.ts).
  // The page was built showing 0: only a change is written (formatting a number starts up the
  // browser's Intl, some 30 ms on a slow phone, which a signed-out visitor need not wait for).
  let shown = 0;
  $credits.subscribe((credits) => {
    if (credits === shown) return;
    shown = credits;
    showCredits(credits);
  });
}

if (header) {
  followScroll(header);
  for (const dropdown of all<HTMLElement>('[data-dropdown]')) bindDropdown(dropdown);
  // Browsers without popovers (before 2024) keep the menu closed; every page is reachable from
  // the footer's links.
  if (menu && 'popover' in HTMLElement.prototype) {
    bindMobileMenu(menu, header.querySelector('[data-menu-open]'));
  }
  for (const link of all<HTMLAnchorElement>('[data-sign-in]')) {
    link.addEventListener('click', onSignInClick);
  }
  for (const button of all<HTMLButtonElement>('[data-sign-out]')) {
    button.addEventListener('click', (event) => void onSignOutClick(event));
  }
  followSession();
  for (const control of all('[data-early]')) control.removeAttribute('aria-disabled');
  header.dataset.ready = '';
  replayEarlyTap(header);
}
