/**
 * Referee controls: `POST /api/tables/:table/requests/:name` with the token kept in sessionStorage (it is
 * forgotten when the tab closes). Every answer is normalised to `{ok, code, message, data}` for display.
 */

const TOKEN_KEY = 'zaptable.token';

export function getToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export function setToken(token: string): void {
  if (token === '') sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

export interface ControlResult {
  readonly ok: boolean;
  /** The table's or the dashboard's error code (`UNAUTHORIZED`, `NOT_YOUR_TURN`, …). */
  readonly code?: string;
  readonly message: string;
  readonly data?: unknown;
}

/** Sends one request; never throws (a network failure is a result too). */
export async function sendRequest(table: string, name: string, params: Record<string, unknown>): Promise<ControlResult> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`/api/tables/${encodeURIComponent(table)}/requests/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(token === '' ? { params } : { params, token }),
    });
  } catch (error) {
    return { ok: false, code: 'NETWORK', message: error instanceof Error ? error.message : 'network error' };
  }
  const body = await response.json().catch(() => null) as
    | { status?: string; data?: unknown; error?: { code: string; message: string } | null; code?: string; message?: string }
    | null;
  if (!response.ok) return { ok: false, code: body?.code ?? `HTTP_${response.status}`, message: body?.message ?? response.statusText };
  if (body?.status === 'ok') return { ok: true, message: 'done', data: body.data };
  return { ok: false, code: body?.error?.code ?? 'ERROR', message: body?.error?.message ?? 'the table refused the request' };
}

/** Shows a modal confirmation; resolves true on "yes". */
export async function confirmAction(text: string): Promise<boolean> {
  const dialog = document.getElementById('confirm') as HTMLDialogElement | null;
  const label = document.getElementById('confirm-text');
  if (dialog === null || label === null) return false;
  label.textContent = text;
  dialog.returnValue = '';
  dialog.showModal();
  // The safe choice has the focus: a stray Enter or a double tap cancels rather than replacing a game.
  (document.getElementById('confirm-cancel') as HTMLButtonElement | null)?.focus();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'ok');
    }, { once: true });
  });
}
