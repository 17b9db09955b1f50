/**
 * Calibration as a state machine, independent of any terminal. Per station:
 *
 *   clear-pad ─confirm─▶ tare ─▶ place-known ─confirm─▶ calibrate G ─▶ verify (settled ≈ G) ─▶ remove-known (settled ≈ 0)
 *
 * then, on one station, per barrel of the list: place-barrel (its tag, confirmed by the registry, and its
 * settled weight) ─▶ lift (tag gone and pad back at ≈ 0) … ─▶ fit ─▶ save. Steps a person finishes without a
 * sensor seeing it (an empty pad, a mass without a tag on an uncalibrated pad) wait for `confirm()`; the rest
 * follow the sensors. A failed command or check stops at `failed` with its code, and `confirm()` tries the
 * step again. Each calibrated station is saved at once, so an interrupted run keeps what it finished.
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import type { BarrelSample, Calibration, StationCalibration } from '../calibration/calibration-file.ts';
import { describeItem } from '../registry/items.ts';
import { lookupTag, normaliseUid } from '../registry/tag-registry.ts';
import { learnBarrels } from './barrel-learning.ts';
import type { CalibrateProgress, CalibrateSessionOptions, CalibrateStep, CalibrateUpdate } from './calibrate-types.ts';

interface Pending {
  tareAt?: string;
  tareCounts?: number;
  calibratedAt?: string;
  perKg?: number;
}

type State =
  | { readonly kind: 'idle' | 'busy' }
  | { readonly kind: 'clear-pad' | 'place-known' | 'remove-known'; readonly index: number }
  | { readonly kind: 'verifying'; readonly index: number; readonly cancel: () => void }
  | { readonly kind: 'place-barrel'; readonly index: number; grams: number | undefined; uid: string | undefined }
  | { readonly kind: 'lift'; readonly uid: string; gone: boolean; readonly then: () => void }
  | { readonly kind: 'failed'; readonly retry: () => Promise<void> | void }
  | { readonly kind: 'finished'; readonly ok: boolean };

export class CalibrateSession {
  private readonly o: CalibrateSessionOptions;
  private readonly tolerance: number;
  private state: State = { kind: 'idle' };
  private calibration: Calibration;
  private pending: Pending = {};
  private samples: BarrelSample[] = [];
  private scalesDone = 0;
  /** Last settled weight per station: tells whether the pad is clear when a tag leaves. */
  private readonly lastGrams = new Map<StationId, number>();

  constructor(options: CalibrateSessionOptions) {
    this.o = options;
    this.calibration = options.calibration;
    this.tolerance = options.toleranceGrams ?? Math.max(1, options.knownGrams * 0.005);
  }

  get finished(): boolean {
    return this.state.kind === 'finished';
  }

  get succeeded(): boolean {
    return this.state.kind === 'finished' && this.state.ok;
  }

  /** The calibration as it stands (what has been saved so far). */
  get current(): Calibration {
    return this.calibration;
  }

  /** True while the flow waits for the person to say a step is done (or to retry a failed one). */
  get awaitingConfirm(): boolean {
    const k = this.state.kind;
    return k === 'clear-pad' || k === 'place-known' || k === 'failed';
  }

  progress(): CalibrateProgress {
    return { done: this.scalesDone + this.samples.length, total: this.o.stations.length + this.o.barrels.length };
  }

  start(): void {
    if (this.state.kind !== 'idle') return;
    this.nextStation(0);
  }

  /** Cancels the flow's timer (an interrupted run); the session does nothing more. */
  stop(): void {
    if (this.state.kind === 'verifying') this.state.cancel();
    if (this.state.kind !== 'finished') this.state = { kind: 'finished', ok: false };
  }

  /** The person says the current step is done (or asks to retry a failed one). Resolves when the command it starts has answered. */
  async confirm(): Promise<void> {
    const state = this.state;
    switch (state.kind) {
      case 'clear-pad': return this.tare(state.index);
      case 'place-known': return this.calibrate(state.index);
      case 'failed': return state.retry();
      case 'idle': case 'busy': case 'remove-known': case 'verifying': case 'place-barrel': case 'lift': case 'finished':
        return undefined;
    }
  }

  /** Feeds one sensor event. */
  handle(event: SensorEvent): void {
    if (event.kind === 'weight-settled') this.lastGrams.set(event.station, event.grams);
    const state = this.state;
    switch (state.kind) {
      case 'verifying':
        if (event.kind === 'weight-settled' && event.station === this.station(state.index)) this.verified(state.index, event.grams, state.cancel);
        return;
      case 'remove-known':
        if (event.kind === 'weight-settled' && event.station === this.station(state.index) && Math.abs(event.grams) <= this.tolerance) {
          this.nextStation(state.index + 1);
        }
        return;
      case 'place-barrel':
        if (event.station === this.o.barrelStation) this.barrelEvent(state, event);
        return;
      case 'lift':
        if (event.station === this.o.barrelStation) this.liftEvent(state, event);
        return;
      case 'idle': case 'busy': case 'clear-pad': case 'place-known': case 'failed': case 'finished':
        return;
    }
  }

  // ------------------------------------------------------------------------------ the scales

  private station(index: number): StationId {
    return this.o.stations[index] as StationId;
  }

  private nextStation(index: number): void {
    if (index >= this.o.stations.length) {
      this.nextBarrel(0);
      return;
    }
    this.pending = {};
    this.state = { kind: 'clear-pad', index };
    this.ask({ kind: 'clear-pad', station: this.station(index), confirm: true }, `Clear the pad of ${this.station(index)} (nothing on it), then press Enter`);
  }

  private async tare(index: number): Promise<void> {
    const station = this.station(index);
    this.state = { kind: 'busy' };
    this.emit({ kind: 'busy', text: `taring ${station} (about a second; keep the pad still)…` });
    const reply = await this.o.scale.tare(station);
    if (this.finished) return;
    if (!reply.ok) {
      this.fail(reply.code, `tare on ${station} failed: ${reply.message}`, 'Press Enter to tare again', () => this.tare(index));
      return;
    }
    this.pending = { tareAt: this.o.now().toISOString(), tareCounts: reply.tareCounts };
    this.emit({ kind: 'tared', station, tareCounts: reply.tareCounts });
    this.state = { kind: 'place-known', index };
    this.ask({ kind: 'place-known', station, grams: this.o.knownGrams, confirm: true },
      `Place the known weight of ${this.o.knownGrams} g in the middle of ${station}'s pad, then press Enter`);
  }

  private async calibrate(index: number): Promise<void> {
    const station = this.station(index);
    this.state = { kind: 'busy' };
    this.emit({ kind: 'busy', text: `calibrating ${station} with ${this.o.knownGrams} g…` });
    const reply = await this.o.scale.calibrate(station, this.o.knownGrams);
    if (this.finished) return;
    if (!reply.ok) {
      this.fail(reply.code, `calibrate on ${station} failed: ${reply.message}`, 'Press Enter to calibrate again', () => this.calibrate(index));
      return;
    }
    this.pending.calibratedAt = this.o.now().toISOString();
    this.pending.perKg = reply.perKg;
    this.emit({ kind: 'calibrated', station, perKg: reply.perKg });
    this.emit({ kind: 'busy', text: `reading the weight back from ${station}…` });
    const cancel = this.o.scheduler.after(this.o.verifyTimeoutMs ?? 5000, () => {
      this.fail('NO_WEIGHT', `${station} reported no settled weight after calibrating (is the weight still on the pad, and still?)`,
        'Press Enter to start this station again', () => {
          this.nextStation(index);
        });
    });
    this.state = { kind: 'verifying', index, cancel };
  }

  private verified(index: number, grams: number, cancel: () => void): void {
    cancel();
    const station = this.station(index);
    const known = this.o.knownGrams;
    if (Math.abs(grams - known) > this.tolerance) {
      this.fail('VERIFY_FAILED', `${station} reads ${grams} g for the ${known} g weight (tolerance ±${this.tolerance} g)`,
        'Press Enter to start this station again (tare, then calibrate)', () => {
          this.nextStation(index);
        });
      return;
    }
    const { tareAt, tareCounts, calibratedAt, perKg } = this.pending;
    const entry: StationCalibration = {
      tareAt: tareAt ?? '', knownGrams: known, calibratedAt: calibratedAt ?? '', tareCounts, perKg, verifiedGrams: grams,
    };
    this.emit({ kind: 'verified', station, grams, knownGrams: known });
    if (!this.save({ ...this.calibration, stations: { ...this.calibration.stations, [station]: entry } })) return;
    this.scalesDone++;
    this.state = { kind: 'remove-known', index };
    this.ask({ kind: 'remove-known', station, confirm: false }, `Take the weight off ${station}`);
  }

  // ------------------------------------------------------------------------------ the barrels

  private nextBarrel(index: number): void {
    const barrel = this.o.barrels[index];
    if (barrel === undefined) {
      this.learn();
      return;
    }
    const station = this.o.barrelStation;
    this.state = { kind: 'place-barrel', index, grams: undefined, uid: undefined };
    this.ask({ kind: 'place-barrel', station, barrel, confirm: false }, `Place ${describeItem({ kind: 'barrel', value: barrel })} on ${station}`);
  }

  private barrelEvent(state: Extract<State, { kind: 'place-barrel' }>, event: SensorEvent): void {
    const barrel = this.o.barrels[state.index] as number;
    if (event.kind === 'weight-settled' && event.grams > this.tolerance) state.grams = event.grams;
    if (event.kind === 'tag-arrived') {
      const item = lookupTag(this.o.registry, event.uid);
      if (item?.kind !== 'barrel' || item.value !== barrel) {
        const what = item === undefined ? `tag ${normaliseUid(event.uid) ?? event.uid} is not enrolled (run zaptable enroll)` : `that is ${describeItem(item)}`;
        this.emit({ kind: 'notice', message: `${what}, not barrel ${barrel}: take it off` });
        this.lift(event.uid, () => {
          this.nextBarrel(state.index);
        });
        return;
      }
      state.uid = normaliseUid(event.uid) ?? event.uid;
    }
    if (state.uid === undefined || state.grams === undefined) return;
    this.samples.push({ barrel, grams: state.grams, uid: state.uid });
    this.emit({ kind: 'weighed', barrel, grams: state.grams, progress: this.progress() });
    this.lift(state.uid, () => {
      this.nextBarrel(state.index + 1);
    });
  }

  /** Waits until the tag has left and the pad is back at ≈ 0 g, so the next weight is not the last one's. */
  private lift(uid: string, then: () => void): void {
    const station = this.o.barrelStation;
    const item = lookupTag(this.o.registry, uid);
    this.state = { kind: 'lift', uid, gone: false, then };
    this.ask({ kind: 'lift', station, uid, confirm: false }, `Take ${item === undefined ? 'it' : describeItem(item)} off ${station}`);
  }

  private liftEvent(state: Extract<State, { kind: 'lift' }>, event: SensorEvent): void {
    if (event.kind === 'tag-left' && (normaliseUid(event.uid) ?? event.uid) === (normaliseUid(state.uid) ?? state.uid)) state.gone = true;
    else if (event.kind !== 'weight-settled') return;
    const clear = Math.abs(this.lastGrams.get(this.o.barrelStation) ?? 0) <= this.tolerance;
    if (state.gone && clear) state.then();
  }

  private learn(): void {
    if (this.o.barrels.length === 0) {
      this.finish();
      return;
    }
    const learned = learnBarrels(this.samples);
    if (!learned.ok) {
      this.fail(learned.code, learned.message, 'Press Enter to weigh the barrels again', () => {
        this.samples = [];
        this.nextBarrel(0);
      });
      return;
    }
    this.emit({ kind: 'learned', weights: learned.weights, flagged: learned.flagged });
    const barrels = {
      weights: learned.weights, samples: learned.samples, station: this.o.barrelStation, learnedAt: this.o.now().toISOString(),
    };
    if (this.save({ ...this.calibration, barrels })) this.finish();
  }

  // ------------------------------------------------------------------------------ plumbing

  private finish(): void {
    this.state = { kind: 'finished', ok: true };
    this.emit({ kind: 'done', calibration: this.calibration });
  }

  private save(next: Calibration): boolean {
    try {
      this.o.save(next);
    } catch (error) {
      this.state = { kind: 'finished', ok: false };
      this.emit({ kind: 'save-failed', message: error instanceof Error ? error.message : String(error) });
      return false;
    }
    this.calibration = next;
    return true;
  }

  private fail(code: string, message: string, retry: string, again: () => Promise<void> | void): void {
    this.state = { kind: 'failed', retry: again };
    this.emit({ kind: 'failed', code, message, retry });
  }

  private ask(step: CalibrateStep, text: string): void {
    this.emit({ kind: 'step', step, text, progress: this.progress() });
  }

  private emit(update: CalibrateUpdate): void {
    this.o.onUpdate(update);
  }
}
