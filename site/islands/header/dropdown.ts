/**
 * The header's dropdowns (AI Tools, the account menu), on the server-rendered markup: a button
 * that opens a panel (its `aria-controls`), ArrowDown on the closed button opens it with focus on
 * the first item, and an outside click, Escape (focus back to the button) or focus leaving
 * closes it.
 */

/** Wire one dropdown: `container` holds its button (first child) and the panel the button names. */
export function bindDropdown(container: HTMLElement): void {
  const button = container.querySelector<HTMLButtonElement>(':scope > button');
  const panel = button && document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!button || !panel) return;

  const onPointerDown = (event: PointerEvent) => {
    if (!container.contains(event.target as Node)) setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    button.focus();
  };
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (next && !container.contains(next)) setOpen(false);
  };

  function setOpen(open: boolean): void {
    if (open === !panel!.hidden) return;
    panel!.hidden = !open;
    button!.setAttribute('aria-expanded', String(open));
    if (open) {
      document.addEventListener('pointerdown', onPointerDown);
      document.addEventListener('keydown', onKeyDown);
      container.addEventListener('focusout', onFocusOut);
    } else {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      container.removeEventListener('focusout', onFocusOut);
    }
  }

  button.addEventListener('click', () => setOpen(panel.hidden));
  button.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' || !panel.hidden) return;
    event.preventDefault();
    setOpen(true);
    panel.querySelector<HTMLElement>('a, button')?.focus();
  });
}
