/**
 * The token entry of the referee, host and simulator pages. The token lives in sessionStorage (this tab only);
 * the page asks the dashboard whether it is the right one (`POST /api/token/check`) when it is entered and
 * whenever a page with the form opens, so a wrong token, or an old one after a restart that generated a new
 * token, says "refused" at once instead of "set".
 */
import { getToken, setToken } from './api.ts';
import { h } from './dom.ts';

export type TokenStatus = 'none' | 'checking' | 'valid' | 'invalid' | 'unknown';

/** Asks the dashboard; a network failure is `unknown` (the page says it could not check). */
export async function checkToken(token: string): Promise<TokenStatus> {
  if (token === '') return 'none';
  try {
    const r = await fetch('/api/token/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    return r.status === 200 ? 'valid' : r.status === 401 ? 'invalid' : 'unknown';
  } catch {
    return 'unknown';
  }
}

const TEXT: Readonly<Record<TokenStatus, string>> = {
  none: 'no token: controls will be refused',
  checking: 'checking the token…',
  valid: 'token valid: controls are allowed from this tab',
  invalid: 'token refused by the dashboard: controls will be refused (a restart without dashboard.token makes a new one)',
  unknown: 'could not check the token (no connection to the dashboard)',
};

export function tokenForm(): HTMLElement {
  const input = h('input', { id: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'dashboard token' });
  input.value = getToken();
  const state = h('span', { class: 'token-state', 'data-testid': 'token-state', 'data-status': 'none', role: 'status', 'aria-live': 'polite' });
  let asked = 0;
  const show = (status: TokenStatus): void => {
    state.textContent = TEXT[status];
    state.setAttribute('data-status', status);
  };
  const check = async (): Promise<void> => {
    const mine = ++asked;
    const token = getToken();
    show(token === '' ? 'none' : 'checking');
    const status = await checkToken(token);
    // A newer entry may have been made meanwhile: only the latest answer counts.
    if (mine === asked) show(status);
  };
  void check();
  return h('form', {
    class: 'panel token', 'aria-label': 'Token',
    onsubmit: (e: Event) => {
      e.preventDefault();
      setToken(input.value.trim());
      void check();
    },
  }, h('div', { class: 'field' }, h('label', { for: 'token' }, 'Referee token'), input),
  h('button', { type: 'submit' }, 'Use token'), ' ', state);
}
