/**
 * Commands to one station: ids, one command in flight, a timeout per command, replies matched by id.
 *
 * Why one in flight (hardware/protocol.md): `tare`, `calibrate` and `raw` are answered only when their
 * load-cell samples are in (~1 s), and meanwhile the station reads no input; the next command waits in its
 * 64-byte receive buffer and anything beyond that is lost. So the host sends the next command only after
 * the reply, or after the reply's timeout.
 *
 * Why ids although only one is in flight: after a timeout the station may still answer (a slow tare). That
 * late `ok 7` must not be taken for the answer to command 8, which is in flight by then. A reply whose id
 * is not the one in flight is stray and ignored; `err -` (the station could not read the id, e.g. a
 * checksum error) belongs to the command in flight, the oldest outstanding one.
 */
import { formatCommand, MAX_COMMAND_ID, type Command, type ErrReply, type OkReply } from '../../protocol/index.ts';
import type { Clock } from '../interface.ts';
import type { TimerSet } from './timers.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A command without its id: the queue assigns ids. */
export type CommandBody = DistributiveOmit<Command, 'id'>;

/** When a command went out and its reply came back (controller µs), and the two lines' sizes. */
export interface ReplyTiming {
  /** Controller time just before the line was handed to the port. */
  readonly sentUs: number;
  /** Controller time when the reply line came out of the parser. */
  readonly receivedUs: number;
  /** Bytes of the command line, `\n` included. */
  readonly sentBytes: number;
  /** Bytes of the reply line, `\n` included. */
  readonly replyBytes: number;
}

/** What became of a command. Never thrown: every command resolves with exactly one outcome. */
export type CommandOutcome =
  /** `ok <id> …`: the reply's fields, undecoded. */
  | ({ readonly ok: true; readonly fields: Readonly<Record<string, string>> } & ReplyTiming)
  /** `err <id|-> <code>`. */
  | ({ readonly ok: false; readonly failure: 'err'; readonly code: number } & ReplyTiming)
  /** No reply within the command's timeout. */
  | { readonly ok: false; readonly failure: 'timeout'; readonly sentUs: number }
  /** The port closed (or the link was stopped) before a reply came. */
  | { readonly ok: false; readonly failure: 'closed' }
  /** The station restarted (a new banner) while the command was in flight: it was lost in the reset. */
  | { readonly ok: false; readonly failure: 'restarted' };

/** What the queue needs from its link. */
export interface CommandQueueDeps {
  /** Writes one line (without `\n`); false when the port cannot take it (closed). */
  readonly write: (line: string) => boolean;
  readonly clock: Clock;
  readonly timers: TimerSet;
  /** Called when a command timed out (the link counts it). */
  readonly onTimeout: (line: string) => void;
}

interface Pending {
  /** The framed line, without `\n`. */
  readonly line: string;
  /** The id the reply must carry; null for a raw line typed by a person (any reply is its reply). */
  readonly id: number | null;
  readonly timeoutMs: number;
  readonly resolve: (outcome: CommandOutcome) => void;
  /** A command of a kind where only the newest matters (the lamp): a newer one replaces it while it waits. */
  readonly slot?: string;
  sentUs?: number;
  timer?: symbol;
}

export class CommandQueue {
  private readonly deps: CommandQueueDeps;
  private readonly waiting: Pending[] = [];
  private current: Pending | undefined;
  private nextId = 1;
  private closed = false;

  constructor(deps: CommandQueueDeps) {
    this.deps = deps;
  }

  /**
   * Queues a command; resolves with its outcome. After {@link closeAll}, resolves `closed` at once.
   *
   * `slot` names commands of which only the newest matters (the lamp: its last pattern is the one to show). A
   * command of that slot still waiting is replaced by this one, in its place, and resolves with this one's
   * outcome, so a station that answers slowly, or not at all while it stays online, holds one lamp command, not one per
   * state change for as long as the game goes on (each waits out its timeout: that had grown without bound).
   */
  submit(body: CommandBody, timeoutMs: number, slot?: string): Promise<CommandOutcome> {
    const id = this.nextId;
    this.nextId = id >= MAX_COMMAND_ID ? 0 : id + 1;
    return this.enqueue(formatCommand({ ...body, id }), id, timeoutMs, slot);
  }

  /**
   * Queues a line exactly as given (a person at the controller's terminal; tests of the station's error
   * replies). It still takes its turn, and the next reply of any id is taken as its answer.
   */
  submitRaw(line: string, timeoutMs: number): Promise<CommandOutcome> {
    return this.enqueue(line, null, timeoutMs);
  }

  /** Offers a reply line. Returns false when it answers no command in flight (stray: late or foreign). */
  handleReply(reply: OkReply | ErrReply, line: string, receivedUs: number): boolean {
    const current = this.current;
    if (current?.sentUs === undefined) return false;
    const matches = current.id === null || reply.id === current.id || (reply.type === 'err' && reply.id === null);
    if (!matches) return false;
    const timing: ReplyTiming = {
      sentUs: current.sentUs, receivedUs, sentBytes: current.line.length + 1, replyBytes: line.length + 1,
    };
    this.finish(reply.type === 'ok'
      ? { ok: true, fields: reply.fields, ...timing }
      : { ok: false, failure: 'err', code: reply.code, ...timing });
    return true;
  }

  /**
   * The station printed a banner: it has restarted, and the command in flight died with the old boot
   * (its bytes went to the bootloader). Resolves it `restarted` at once instead of waiting out its
   * timeout, which would hold up the ping burst that maps the new boot's clock; queued commands go next.
   */
  abandonInFlight(): void {
    if (this.current?.sentUs === undefined) return;
    this.finish({ ok: false, failure: 'restarted' });
  }

  /** Resolves every queued and in-flight command as `closed`; later submissions resolve `closed` too. */
  closeAll(): void {
    this.closed = true;
    const all = [...(this.current === undefined ? [] : [this.current]), ...this.waiting.splice(0)];
    this.current = undefined;
    for (const pending of all) {
      this.deps.timers.cancel(pending.timer);
      pending.resolve({ ok: false, failure: 'closed' });
    }
  }

  /** Commands queued or in flight. */
  get length(): number {
    return this.waiting.length + (this.current === undefined ? 0 : 1);
  }

  private enqueue(line: string, id: number | null, timeoutMs: number, slot?: string): Promise<CommandOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, failure: 'closed' });
    return new Promise((resolve) => {
      const replaced = slot === undefined ? -1 : this.waiting.findIndex((p) => p.slot === slot);
      if (replaced >= 0) {
        // In the waiting one's place: a lamp that keeps changing is never pushed back behind other commands.
        const answer = this.waiting[replaced]?.resolve;
        this.waiting[replaced] = {
          line, id, timeoutMs, slot, resolve: (outcome) => {
            answer?.(outcome);
            resolve(outcome);
          },
        };
      } else {
        this.waiting.push({ line, id, timeoutMs, resolve, ...slot === undefined ? {} : { slot } });
      }
      if (this.current === undefined) this.sendNext();
    });
  }

  private sendNext(): void {
    while (this.current === undefined) {
      const next = this.waiting.shift();
      if (next === undefined) return;
      next.sentUs = this.deps.clock.nowUs();
      if (!this.deps.write(next.line)) {
        next.resolve({ ok: false, failure: 'closed' });
        continue;
      }
      next.timer = this.deps.timers.after(next.timeoutMs, () => {
        this.deps.onTimeout(next.line);
        this.finish({ ok: false, failure: 'timeout', sentUs: next.sentUs ?? 0 });
      });
      this.current = next;
    }
  }

  private finish(outcome: CommandOutcome): void {
    const current = this.current;
    if (current === undefined) return;
    this.current = undefined;
    this.deps.timers.cancel(current.timer);
    current.resolve(outcome);
    if (!this.closed) this.sendNext();
  }
}
