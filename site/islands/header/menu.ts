/**
 * The phone menu's behaviour beyond what the native popover does by itself (open from the menu
 * button, close from its close button or Escape): while it is open, focus starts on its close
 * button, the page behind does not scroll, Tab stays inside (it is announced as a modal dialog),
 * and following a link or growing past the breakpoint closes it; once closed, focus is back on
 * the menu button.
 */
import { keepTabInside } from '../shared/focus-trap.ts';

/** The menu is for small screens only; growing past this closes it. */
const MOBILE_QUERY = '(max-width: 768px)';

/** What runs while the menu is open; returns what undoes it. */
function whileOpen(menu: HTMLElement): () => void {
  menu.querySelector<HTMLElement>('[data-menu-close]')?.focus();
  const root = document.documentElement;
  const previousOverflow = root.style.overflow;
  root.style.overflow = 'hidden';
  const onKeyDown = (event: KeyboardEvent) => keepTabInside(event, menu);
  const media = window.matchMedia(MOBILE_QUERY);
  const onMediaChange = () => {
    if (!media.matches) menu.hidePopover();
  };
  document.addEventListener('keydown', onKeyDown);
  media.addEventListener('change', onMediaChange);
  return () => {
    root.style.overflow = previousOverflow;
    document.removeEventListener('keydown', onKeyDown);
    media.removeEventListener('change', onMediaChange);
  };
}

/** Wire the menu (a `popover` element) and the bar's button that opens it. */
export function bindMobileMenu(menu: HTMLElement, openButton: HTMLElement | null): void {
  let undo: (() => void) | null = null;
  const release = () => {
    if (!undo) return;
    undo();
    undo = null;
    // Focus was inside the menu, which is going: give it back to the button that opened it.
    if (document.activeElement === document.body || menu.contains(document.activeElement)) {
      openButton?.focus();
    }
  };
  const onToggle = () => {
    const open = menu.matches(':popover-open');
    if (open && !undo) undo = whileOpen(menu);
    if (!open) release();
  };
  menu.addEventListener('toggle', onToggle);
  // `toggle` is queued: a page could be told the menu is closed (it is hidden, focus is back)
  // and still not scroll for a moment. `beforetoggle` runs as it closes.
  menu.addEventListener('beforetoggle', (event) => {
    if ((event as ToggleEvent).newState === 'closed') release();
  });
  // A link in the menu may lead to this very page: close the menu as the visitor goes.
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a[href]')) menu.hidePopover();
  });
  // Opened before this script ran (a tap right after the first paint).
  onToggle();
}
