/**
 * `zaptable calibrate --read-range`: how far above the pad a tag still reads reliably. The maker holds one tag
 * flat over the ring on a growing stack of 5 mm spacers (the pad's P3 blocks) and presses Enter at each height;
 * the flow watches the station's `TAG+`/`TAG-` for a few seconds. A height counts as reliable when the tag is in
 * the field when the window starts (or arrives within its first second), never leaves during it, and is still
 * there at its end. The flow stops at the first height that fails and reports the last reliable one.
 *
 * hardware/bill-of-materials.md ("The pad stack") puts a barrel's tag 2 mm above the pad, 16.1 mm from the
 * antenna; a well-tuned MFRC522 with a 25 mm tag reads to ~30 mm. `READ_RANGE_NEEDED_MM` above the pad (29 mm
 * from the antenna) is the check of hardware/build-guide.md, step 4.
 */
import type { SensorEvent, SimulatedTable, StationId } from '../../hardware/index.ts';
import type { Scheduler } from '../../runtime/ports.ts';

/** The heights tried, mm above the pad's surface: 0 and then one 5 mm spacer more each time. */
export const READ_RANGE_HEIGHTS_MM: readonly number[] = [0, 5, 10, 15, 20, 25, 30];
/** A reader must read this far above the pad (barrel floor 2 mm, with a margin for tilt and a thicker felt). */
export const READ_RANGE_NEEDED_MM = 15;
/** How long each height is watched, ms. */
export const READ_RANGE_WINDOW_MS = 3000;
/** A tag may arrive this long after Enter and still count (the hand settles). */
const ARRIVAL_GRACE_MS = 1000;

export type ReadRangeUpdate =
  | { readonly kind: 'step'; readonly station: StationId; readonly heightMm: number; readonly index: number; readonly total: number }
  | { readonly kind: 'watching'; readonly heightMm: number }
  | { readonly kind: 'result'; readonly heightMm: number; readonly reliable: boolean; readonly detail: string }
  | { readonly kind: 'done'; readonly station: StationId; readonly reliableMm: number | undefined };

export interface ReadRangeOptions {
  readonly station: StationId;
  readonly scheduler: Scheduler;
  readonly onUpdate: (update: ReadRangeUpdate) => void;
  readonly heightsMm?: readonly number[];
  readonly windowMs?: number;
}

interface Window {
  readonly presentAtStart: boolean;
  arrived: boolean;
  early: boolean;
  lost: number;
}

export class ReadRangeFlow {
  private readonly heights: readonly number[];
  private readonly windowMs: number;
  private readonly present = new Set<string>();
  private index = 0;
  private window: Window | undefined;
  private reliableMm: number | undefined;
  private finished = false;
  private cancels: (() => void)[] = [];

  constructor(private readonly options: ReadRangeOptions) {
    this.heights = options.heightsMm ?? READ_RANGE_HEIGHTS_MM;
    this.windowMs = options.windowMs ?? READ_RANGE_WINDOW_MS;
  }

  start(): void {
    this.prompt();
  }

  /** Enter: the tag is at the prompted height; watch it. Ignored while a window runs or after the end. */
  confirm(): void {
    if (this.finished || this.window !== undefined) return;
    const heightMm = this.heights[this.index] ?? 0;
    const window: Window = { presentAtStart: this.present.size > 0, arrived: false, early: false, lost: 0 };
    this.window = window;
    this.options.onUpdate({ kind: 'watching', heightMm });
    this.cancels.push(this.options.scheduler.after(ARRIVAL_GRACE_MS, () => {
      window.early = window.arrived;
    }));
    this.cancels.push(this.options.scheduler.after(this.windowMs, () => {
      this.judge(heightMm, window);
    }));
  }

  handle(event: SensorEvent): void {
    if (event.station !== this.options.station) return;
    if (event.kind === 'tag-arrived') {
      this.present.add(event.uid);
      if (this.window !== undefined) this.window.arrived = true;
    } else if (event.kind === 'tag-left') {
      this.present.delete(event.uid);
      if (this.window !== undefined) this.window.lost++;
    }
  }

  stop(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels = [];
    this.finished = true;
  }

  private prompt(): void {
    const heightMm = this.heights[this.index];
    if (heightMm === undefined) {
      this.done();
      return;
    }
    this.options.onUpdate({ kind: 'step', station: this.options.station, heightMm, index: this.index, total: this.heights.length });
  }

  private judge(heightMm: number, window: Window): void {
    this.window = undefined;
    const inField = window.presentAtStart || window.early;
    const reliable = inField && window.lost === 0 && this.present.size > 0;
    const seconds = (this.windowMs / 1000).toFixed(0);
    const detail = reliable
      ? `read, held for ${seconds} s`
      : !inField && !window.arrived
          ? 'not read'
          : window.lost > 0
            ? `read, but lost ${window.lost} time${window.lost === 1 ? '' : 's'} in ${seconds} s`
            : `read only after ${ARRIVAL_GRACE_MS / 1000} s`;
    this.options.onUpdate({ kind: 'result', heightMm, reliable, detail });
    if (!reliable) {
      this.done();
      return;
    }
    this.reliableMm = heightMm;
    this.index++;
    this.prompt();
  }

  private done(): void {
    this.finished = true;
    this.options.onUpdate({ kind: 'done', station: this.options.station, reliableMm: this.reliableMm });
  }
}

/** The scripted person of `--simulate`: puts the test tag at each prompted height, then presses Enter. */
export class ReadRangePerson {
  static readonly TAG = '04A0B1C2D3E4F5';

  constructor(
    private readonly table: SimulatedTable,
    private readonly scheduler: Scheduler,
    private readonly confirm: () => void,
  ) {}

  react(update: ReadRangeUpdate): void {
    if (update.kind === 'done') {
      this.table.liftItem(update.station, ReadRangePerson.TAG);
      return;
    }
    if (update.kind !== 'step') return;
    this.scheduler.after(100, () => {
      this.table.holdTag(update.station, ReadRangePerson.TAG, update.heightMm);
    });
    this.scheduler.after(400, this.confirm);
  }
}
