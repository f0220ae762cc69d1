/**
 * The one focus trap (WAI-ARIA modal dialog pattern): Tab from the last focusable element goes to
 * the first, Shift+Tab from the first (or from the container itself) to the last. aria-modal
 * promises the rest of the page is out of reach, so focus must not leave. Used by the shared
 * Dialog and the header's mobile menu.
 */

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A keydown event from the DOM or from React: all the trap needs of it. */
interface TabKeyEvent {
  key: string;
  shiftKey: boolean;
  preventDefault: () => void;
}

/** On Tab, keep focus inside `container`; any other key is left alone. */
export function keepTabInside(event: TabKeyEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return;
  // Only what is shown: the header's menu keeps its signed-in and signed-out parts, one hidden.
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (item) => item.getClientRects().length > 0,
  );
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    event.preventDefault();
    container.focus();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
