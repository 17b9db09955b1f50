/**
 * The game record as the dashboard serves it (docs/mqtt.md, "The game record"): relayed from the controller's
 * `games`, `record` and `record-state` requests, which answer from its event log. The dashboard runs beside the
 * controller or alone, following it over MQTT; either way the log is the controller's, so it is asked.
 *
 * Every viewer may read the record (it is public by construction), but every relayed request comes from this
 * dashboard's one MQTT client, whose request budget the referee's controls share (docs/mqtt.md, "Limits"). So
 * answers are cached and identical requests in flight are merged: a room of phones opening the same record asks
 * the table once. An answer is kept until the table publishes a newer `seq` (an action, an undo), or for good
 * once its game has ended (a finished game's record never changes). What is still asked is spaced out (one
 * request every `spacingMs`, default 25 ms: at most 40 a second, of the client's sustained 100), so viewers
 * stepping through different moves never use up the budget the referee's controls need; a viewer waiting more
 * than 5 s for a turn is answered RECORD_UNAVAILABLE instead.
 */
import type { ResponsePayload } from '../../controller/transport/payloads.ts';
import { DashboardError } from './errors.ts';
import type { MqttHub } from './mqtt-hub.ts';

/** Answers kept; a record of a few hundred steps is some 100 KB, so a few hundred stay well under 50 MB. */
const KEEP = 256;
/** The longest a record request waits for its turn before it is refused, ms. */
const MAX_WAIT_MS = 5000;

interface Page {
  readonly next: number | null;
  readonly game?: { readonly endedAtMs?: number | null };
}

export class RecordRelay {
  private readonly answers = new Map<string, unknown>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Games seen finished: their answers do not depend on the table's seq. */
  private readonly finished = new Set<string>();

  /** When the next request to the table may leave (ms since 1970). */
  private nextAt = 0;

  constructor(private readonly hub: MqttHub, private readonly token: string, private readonly spacingMs = 25) {}

  /** The table's games from the log, newest first. */
  async games(table: string): Promise<unknown> {
    return this.cached(`${table}|games|${this.seq(table)}`, async () => this.data(table, 'games', { limit: 100 }));
  }

  /** A game's whole public record (every page), `game` undefined for the newest. */
  async record(table: string, game: number | undefined): Promise<unknown> {
    const key = game !== undefined && this.finished.has(`${table}|${game}`) ? `${table}|record|${game}` : `${table}|record|${game ?? 'newest'}|${this.seq(table)}`;
    return this.cached(key, async () => {
      const first = await this.data(table, 'record', game === undefined ? {} : { game }) as Page & { steps: unknown[]; refusals: unknown[]; corrections: unknown[] };
      const steps = [...first.steps];
      for (let next = first.next; next !== null;) {
        const page = await this.data(table, 'record', { game: (first.game as { id: number }).id, from: next }) as Page & { steps: unknown[] };
        steps.push(...page.steps);
        next = page.next;
      }
      const id = (first.game as { id: number }).id;
      const record = { game: first.game, steps, refusals: first.refusals, corrections: first.corrections };
      if (typeof first.game?.endedAtMs === 'number') {
        // Ended: kept under the key that no longer depends on the table's seq.
        this.finished.add(`${table}|${id}`);
        this.remember(`${table}|record|${id}`, record);
      }
      return record;
    });
  }

  /** The public view after `step` of a game. */
  async state(table: string, game: number, step: number): Promise<unknown> {
    const stable = this.finished.has(`${table}|${game}`) ? 'ended' : this.seq(table);
    return this.cached(`${table}|state|${game}|${step}|${stable}`, async () => this.data(table, 'record-state', { game, step }));
  }

  /** The full action log (every page): not cached, never shared — the caller has checked the token. */
  async actionLog(table: string, game: number): Promise<unknown> {
    const first = await this.data(table, 'action-log', { game }) as Page & { actions: unknown[] };
    const actions = [...first.actions];
    for (let next = first.next; next !== null;) {
      const page = await this.data(table, 'action-log', { game, from: next }) as Page & { actions: unknown[] };
      actions.push(...page.actions);
      next = page.next;
    }
    const { next: _n, total: _t, actions: _a, ...head } = first as Page & { actions: unknown[]; total: number };
    return { ...head, actions };
  }

  private seq(table: string): string {
    const { seq } = this.hub.summary(table) as { readonly seq?: unknown };
    return typeof seq === 'number' ? String(seq) : '0';
  }

  private async cached(key: string, load: () => Promise<unknown>): Promise<unknown> {
    if (this.answers.has(key)) return this.answers.get(key);
    const running = this.inFlight.get(key);
    if (running !== undefined) return running;
    const promise = load().then((value) => {
      this.remember(key, value);
      return value;
    }).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private remember(key: string, value: unknown): void {
    this.answers.set(key, value);
    while (this.answers.size > KEEP) this.answers.delete(this.answers.keys().next().value as string);
  }

  /** Waits for this request's turn (see the file comment). */
  private async turn(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt);
    if (at - now > MAX_WAIT_MS) throw new DashboardError('RECORD_UNAVAILABLE', 'too many record requests at once: try again in a few seconds');
    this.nextAt = at + this.spacingMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  private async data(table: string, name: string, params: Record<string, unknown>): Promise<unknown> {
    await this.turn();
    const answer: ResponsePayload = await this.hub.request(table, name, params, this.token);
    if (answer.status === 'ok') return answer.data;
    const { code, message } = answer.error;
    if (code === 'NO_SUCH_GAME' || code === 'NO_SUCH_STEP') throw new DashboardError('RECORD_NOT_FOUND', `${code}: ${message}`);
    throw new DashboardError('RECORD_UNAVAILABLE', `${code}: ${message}`);
  }
}
