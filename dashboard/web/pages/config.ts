/**
 * `#/config`: the controller's configuration as validated (defaults filled in), read-only. Only with the
 * dashboard token (`GET /api/config`; dashboard/server/routes/config.ts says why): every secret is shown as
 * `********` and a fixed seed is hidden even then. Grouped by its top-level sections, one row per setting with
 * its dotted path, the name docs/configuration.md uses.
 */
import { getToken } from '../api.ts';
import { h, replace } from '../dom.ts';
import type { PageContext } from '../page.ts';
import { tokenForm } from '../token-form.ts';

/** Every leaf of a JSON value as [dotted path, text]; arrays as `tables[0].id`. */
export function settingRows(value: unknown, path = ''): [string, string][] {
  if (Array.isArray(value)) {
    return value.length === 0 ? [[path, '(none)']] : value.flatMap((v, i) => settingRows(v, `${path}[${i}]`));
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0 ? [[path, '(empty)']] : entries.flatMap(([k, v]) => settingRows(v, path === '' ? k : `${path}.${k}`));
  }
  return [[path, value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value)]];
}

interface ConfigAnswer {
  readonly config?: unknown;
  readonly message?: string;
}

export class ConfigPage {
  readonly element = h('div', { class: 'config-page' });
  private readonly body = h('div', { class: 'config-body', 'data-testid': 'config-body' });
  private readonly status = h('p', { class: 'muted', role: 'status', 'data-testid': 'config-status' });
  private asked = 0;

  constructor(_ctx: PageContext) {
    const form = tokenForm();
    // The form's own handler stores the token first; then this one asks for the configuration with it.
    form.addEventListener('submit', () => {
      void this.load();
    });
    this.element.append(h('h1', {}, 'Configuration'),
      h('p', { class: 'muted' }, 'The controller\'s configuration as it was validated at start, read-only. Shown to the referee only '
        + '(the dashboard token): it names ports, hosts and logins. Passwords and tokens are always shown as ********, a fixed '
        + 'seed is hidden. Change it in the file and restart (docs/configuration.md).'),
      form, this.status, this.body);
    void this.load();
  }

  private async load(): Promise<void> {
    const mine = ++this.asked;
    const token = getToken();
    if (token === '') {
      this.status.textContent = 'Enter the dashboard token to see the configuration.';
      replace(this.body);
      return;
    }
    this.status.textContent = 'Reading the configuration…';
    const answer = await fetch('/api/config', { headers: { authorization: `Bearer ${token}` } })
      .then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) as ConfigAnswer | null }))
      .catch(() => ({ status: 0, body: null }));
    if (mine !== this.asked) return;
    if (answer.status !== 200 || answer.body?.config === undefined) {
      this.status.textContent = answer.status === 401 ? 'The token was refused: the configuration is shown to the referee only.'
        : answer.status === 0 ? 'Could not reach the dashboard.' : answer.body?.message ?? `The dashboard answered ${answer.status}.`;
      replace(this.body);
      return;
    }
    const config = answer.body.config as Record<string, unknown>;
    this.status.textContent = `${Object.keys(config).length} sections.`;
    replace(this.body, Object.entries(config).map(([section, value]) => h('section', { class: 'panel config-section', 'data-section': section },
      h('h2', {}, section),
      h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': `${section} (scrolls sideways)` },
        h('table', { class: 'config-table' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'setting'), h('th', { scope: 'col' }, 'value'))),
          h('tbody', {}, settingRows(value, section).map(([path, text]) => h('tr', { 'data-path': path },
            h('th', { scope: 'row' }, h('code', {}, path)), h('td', {}, text)))))))));
  }

  update(): void {
    // Read once per token: the configuration does not change while the controller runs.
  }
}
