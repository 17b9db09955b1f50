/**
 * A control that says why it is disabled: the reason is shown in a line after the button and is the button's
 * accessible description (`aria-describedby`), so a screen reader hears "Roll the dice, dimmed, only in the
 * roll phase: now Move pieces" instead of a silent dead button.
 */
import { h } from './dom.ts';

export interface GatedButton {
  /** The button and its reason line, to mount. */
  readonly element: HTMLElement;
  readonly button: HTMLButtonElement;
  /** `null` enables the button; a reason disables it and shows the reason. Changes nothing else (no re-render). */
  set(reason: string | null): void;
}

let made = 0;

export function gatedButton(button: HTMLButtonElement): GatedButton {
  const id = `why-${++made}`;
  const why = h('span', { class: 'why', id });
  button.setAttribute('aria-describedby', id);
  return {
    element: h('span', { class: 'gated' }, button, why),
    button,
    set: (reason) => {
      button.disabled = reason !== null;
      const text = reason ?? '';
      if (why.textContent !== text) why.textContent = text;
    },
  };
}
