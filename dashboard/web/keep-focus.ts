/**
 * For pages that redraw a part from scratch on a live update (the buzzer host's controls): the control that had
 * the keyboard focus gets it back in the new drawing, found by a stable key (its id, `data-testid` or
 * accessible name). Without this a host pressing "+1 for Ana" with the keyboard loses the focus at the update
 * the press itself causes.
 */

function keyOf(el: Element): string | null {
  if (el.id !== '') return `#${el.id}`;
  const testId = el.getAttribute('data-testid');
  if (testId !== null) return `[data-testid="${CSS.escape(testId)}"]`;
  const label = el.getAttribute('aria-label');
  return label === null ? null : `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]`;
}

/** Runs `redraw` (which replaces `container`'s content) and gives the focus back to the same control, if it is still there. */
export function keepingFocus(container: HTMLElement, redraw: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && container.contains(active) ? keyOf(active) : null;
  redraw();
  if (key === null) return;
  const again = container.querySelector<HTMLElement>(key);
  if (again !== null && again !== document.activeElement) again.focus({ preventScroll: true });
}
