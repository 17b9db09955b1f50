/**
 * The overview of every table of every controller under the base topic: its name, the controller that runs
 * it, status online/offline, the game, the players, the phase, and the stations' health at a glance (one dot
 * per station, with its name in words).
 */
import { statusBadge } from '../common.ts';
import { h, replace } from '../dom.ts';
import type { OverviewLine } from '../games/game-ui.ts';
import { gameSummary } from '../games/registry.ts';
import type { LiveStore, TableData } from '../live-client.ts';
import { namesOf, type NameOf } from '../names.ts';
import type { BuzzerView } from '../types.ts';

const BUZZER_PHASE: Readonly<Record<string, string>> = {
  idle: 'not armed', reading: 'reading the question', armed: 'armed', judging: 'judging', decided: 'decided', closed: 'answered',
};

function buzzerLine(v: BuzzerView): OverviewLine {
  const name = (id: string): string => v.contestants.find((c) => c.id === id)?.name ?? id;
  const result = v.tie !== null ? `, tie: ${v.tie.members.map(name).join(' and ')}`
    : v.winners.length > 0 && (v.phase === 'decided' || v.phase === 'closed') ? `, won by ${v.winners.map(name).join(', ')}` : '';
  return {
    game: 'Buzzer (lockout)',
    players: v.contestants.map((c) => c.name).join(', '),
    phase: `${v.question === 0 ? 'no question yet' : `question ${v.question}`}, ${BUZZER_PHASE[v.phase] ?? v.phase}${result}`,
  };
}

function gameLine(t: TableData, nameOf: NameOf): OverviewLine {
  const state = t.state;
  if (state === undefined) return { game: '—', players: '—', phase: 'no state yet' };
  if (state.mode === 'buzzer') return buzzerLine(state.buzzer);
  if (state.mode !== 'game') return { game: 'no game', players: '—', phase: 'idle' };
  // Each game says its own lines (games/<id>/); a game this dashboard does not know is named by its id.
  const ui = gameSummary(state.game);
  return ui === undefined ? { game: state.game, players: '—', phase: 'not shown by this dashboard' } : ui.overview(state.view, nameOf);
}

/**
 * The card's picture of the table (`GameUi.miniBoard`); its box keeps its size while there is none, so the card
 * never grows. A buzzer table has no board: no box.
 */
function miniBoard(t: TableData, nameOf: NameOf): HTMLElement | null {
  const state = t.state;
  if (state?.mode === 'buzzer') return null;
  const picture = state?.mode === 'game' ? gameSummary(state.game)?.miniBoard?.(state.view, nameOf) ?? null : null;
  return h('div', { class: 'mini-host', 'data-testid': 'mini-board' }, picture);
}

/**
 * One station's dot. While its table is offline (its Pi dropped off the network) the station's last report is
 * not news: it is shown as unknown, in words too, rather than green.
 */
function stationDot(s: { readonly station: string; readonly online: boolean }, tableOffline: boolean): HTMLElement {
  if (tableOffline) return h('span', { class: 'dot unknown', title: `${s.station}: unknown (the table is offline)` }, `${s.station} ?`);
  return h('span', { class: `dot ${s.online ? 'up' : 'down'}`, title: `${s.station}: ${s.online ? 'online' : 'offline'}` },
    `${s.station} ${s.online ? '●' : '○'}`);
}

export class OverviewPage {
  readonly element = h('div', { class: 'overview' });

  constructor(private readonly store: LiveStore) {}

  update(): void {
    const ids = this.store.tableIds();
    replace(this.element,
      h('h1', {}, 'Tables'),
      ids.length === 0 ? h('p', { class: 'muted' }, 'No table has announced itself on the broker yet.') :
          h('ul', { class: 'table-cards' }, ids.map((id) => {
            const t = this.store.table(id);
            const bridge = this.store.bridgeEntry(id);
            const nameOf = namesOf(this.store, id);
            const line = gameLine(t, nameOf);
            const stations = [...t.health.values()];
            return h('li', { class: `table-card state-${t.status}`, 'data-table': id },
              h('a', { href: `#/table/${encodeURIComponent(id)}`, class: 'table-link' }, h('h2', {}, bridge?.name ?? id)),
              statusBadge(t.status),
              bridge?.simulated === true ? h('span', { class: 'badge sim' }, 'simulated') : null,
              miniBoard(t, nameOf),
              h('dl', {},
                // At a venue the tables of several controllers (one Pi each) share the overview.
                h('dt', {}, 'controller'), h('dd', { 'data-testid': 'controller' }, bridge?.controller ?? '—'),
                h('dt', {}, 'game'), h('dd', { 'data-testid': 'game' }, line.game),
                h('dt', {}, 'players'), h('dd', { 'data-testid': 'players' }, line.players),
                h('dt', {}, 'phase'), h('dd', { 'data-testid': 'phase' }, line.phase)),
              h('div', { class: 'station-dots', role: 'group', 'aria-label': 'Stations' },
                stations.length === 0 ? h('span', { class: 'muted' }, 'no station health') :
                    stations.map((s) => stationDot(s, t.status === 'offline'))),
              // One nav landmark per card: each needs its own name.
              h('nav', { class: 'card-links', 'aria-label': `${bridge?.name ?? id}: pages` },
                h('a', { href: `#/table/${encodeURIComponent(id)}` }, t.state?.mode === 'buzzer' ? 'big screen' : 'game'), ' · ',
                h('a', { href: `#/table/${encodeURIComponent(id)}/health` }, 'health'), ' · ',
                h('a', { href: `#/table/${encodeURIComponent(id)}/notices` }, 'notices'), ' · ',
                h('a', { href: `#/table/${encodeURIComponent(id)}/referee` }, t.state?.mode === 'buzzer' ? 'host' : 'referee'),
                // A table on simulated stations can be played from the browser: its simulator panel.
                bridge?.simulated === true ? [' · ', h('a', { href: `#/table/${encodeURIComponent(id)}/simulator`, 'data-testid': 'simulator-link' }, 'simulator')] : null));
          })));
  }
}
