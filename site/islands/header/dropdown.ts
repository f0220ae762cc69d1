/**
 * The header's dropdowns (AI Tools, the account menu): a button that opens a panel, ArrowDown on
 * the closed button opens it with focus on the first item, and an outside click, Escape (focus
 * back to the button) or focus leaving closes it.
 */
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
} from 'react';

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

/**
 * State and wiring of one dropdown: spread `buttonProps` on its button and `panelProps` on its
 * panel, and put `containerRef` on the element holding both.
 */
export function useDropdown<Container extends HTMLElement, Panel extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const containerRef = useRef<Container>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<Panel>(null);
  const panelId = useId();
  useDismiss(open, close, containerRef, buttonRef);

  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
      focusFirstItem(panelRef.current);
    }
  };

  return {
    containerRef,
    buttonProps: {
      ref: buttonRef,
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpen((value) => !value),
      onKeyDown,
    },
    panelProps: { id: panelId, ref: panelRef, hidden: !open },
  };
}
