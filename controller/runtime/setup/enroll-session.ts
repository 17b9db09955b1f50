/**
 * Enrollment as a state machine, independent of any terminal: it asks for one item at a time, takes the
 * next `tag-arrived` from the chosen station as that item's tag, and saves the registry after every item, so
 * an interrupted run loses nothing and a re-run resumes with the first item still without a tag.
 *
 *   ask(item) ──tag-arrived──▶ enrolled ──▶ lift(uid) ──tag-left(uid)──▶ ask(next item) … ──▶ done
 *                   │
 *                   └─ duplicate / bad tag: rejected (nothing saved) ──▶ lift(uid) ──tag-left──▶ ask(same item)
 *
 * Waiting for the tag to leave before asking again is what keeps one tag from being read as two items: a
 * tag lying on the reader is reported once, on arrival, but a person may lift and re-place it.
 */
import type { SensorEvent, StationId } from '../../hardware/interface.ts';
import { describeItem, parseItemKey, type Item } from '../registry/items.ts';
import { enrollTag, lookupTag, missingItems, normaliseUid, type TagRegistry } from '../registry/tag-registry.ts';

/** Where the run stands: `done` of the run's `total` items have a tag. */
export interface EnrollProgress {
  readonly done: number;
  readonly total: number;
}

/** What the session tells the person (through whatever interface runs it). */
export type EnrollUpdate =
  | { readonly kind: 'resumed'; readonly alreadyTagged: number; readonly progress: EnrollProgress }
  | { readonly kind: 'place'; readonly item: Item; readonly text: string; readonly progress: EnrollProgress }
  | { readonly kind: 'enrolled'; readonly item: Item; readonly uid: string; readonly progress: EnrollProgress }
  | {
    readonly kind: 'rejected'; readonly code: 'TAG_ALREADY_ENROLLED' | 'BAD_UID'; readonly uid: string;
    readonly item: Item; readonly message: string;
  }
  | { readonly kind: 'skipped'; readonly item: Item; readonly message: string }
  | { readonly kind: 'lift'; readonly uid: string; readonly text: string }
  | { readonly kind: 'save-failed'; readonly message: string }
  | { readonly kind: 'done'; readonly progress: EnrollProgress };

export interface EnrollSessionOptions {
  /** The registry as loaded (with any `--redo` items already forgotten). */
  readonly registry: TagRegistry;
  /** The run's items in order; those already tagged are skipped. */
  readonly items: readonly Item[];
  /** The station whose reader is used. */
  readonly station: StationId;
  /** Persists the registry (atomically); throwing stops the session with `save-failed`. */
  readonly save: (registry: TagRegistry) => void;
  readonly onUpdate: (update: EnrollUpdate) => void;
}

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'asking'; readonly item: Item }
  | { readonly kind: 'lifting'; readonly uid: string; readonly next: Item | undefined }
  | { readonly kind: 'finished'; readonly ok: boolean };

export class EnrollSession {
  private readonly options: EnrollSessionOptions;
  private current: TagRegistry;
  private state: State = { kind: 'idle' };

  constructor(options: EnrollSessionOptions) {
    this.options = options;
    this.current = options.registry;
  }

  /** The registry as it stands (everything enrolled so far this run is also saved). */
  get registry(): TagRegistry {
    return this.current;
  }

  /** True once every item has a tag, or saving failed. */
  get finished(): boolean {
    return this.state.kind === 'finished';
  }

  /** True when the session ended with every item tagged. */
  get succeeded(): boolean {
    return this.state.kind === 'finished' && this.state.ok;
  }

  progress(): EnrollProgress {
    const total = this.options.items.length;
    return { done: total - missingItems(this.current, this.options.items).length, total };
  }

  /** Reports what is already done and asks for the first missing item. Call once. */
  start(): void {
    if (this.state.kind !== 'idle') return;
    const progress = this.progress();
    if (progress.done > 0) this.emit({ kind: 'resumed', alreadyTagged: progress.done, progress });
    this.askNext();
  }

  /** Feeds one sensor event; events of other stations and other kinds are ignored. */
  handle(event: SensorEvent): void {
    if (event.station !== this.options.station) return;
    const state = this.state;
    if (event.kind === 'tag-arrived' && state.kind === 'asking') this.tagArrived(state.item, event.uid);
    else if (event.kind === 'tag-left' && state.kind === 'lifting' && sameUid(event.uid, state.uid)) this.tagLeft(state.next);
  }

  private tagArrived(item: Item, uid: string): void {
    const result = enrollTag(this.current, uid, item);
    if (!result.ok) {
      if (result.code === 'ITEM_ALREADY_TAGGED') {
        // Only possible when the registry changed under the run; the item needs nothing more.
        this.emit({ kind: 'skipped', item, message: `${describeItem(item)} already has tag ${result.uid}` });
        this.liftThen(uid, undefined);
        return;
      }
      const on = result.code === 'TAG_ALREADY_ENROLLED' ? parseItemKey(result.item) : undefined;
      const message = on === undefined
        ? `${result.message}: nothing saved`
        : `tag ${normaliseUid(uid) ?? uid} is already on ${describeItem(on)}: nothing saved. Take it away and place ${describeItem(item)}`;
      this.emit({ kind: 'rejected', code: result.code, uid, item, message });
      this.liftThen(uid, item);
      return;
    }
    if (result.registry === this.current) {
      // Re-reading the item's own tag: it is enrolled already.
      this.liftThen(uid, undefined);
      return;
    }
    try {
      this.options.save(result.registry);
    } catch (error) {
      this.emit({ kind: 'save-failed', message: error instanceof Error ? error.message : String(error) });
      this.state = { kind: 'finished', ok: false };
      return;
    }
    this.current = result.registry;
    this.emit({ kind: 'enrolled', item, uid: normaliseUid(uid) ?? uid, progress: this.progress() });
    this.liftThen(uid, undefined);
  }

  /** Waits for `uid` to leave; then asks for `next` (a retry), or else the next missing item. */
  private liftThen(uid: string, next: Item | undefined): void {
    const on = lookupTag(this.current, uid);
    const what = on === undefined ? 'the tag' : describeItem(on);
    this.state = { kind: 'lifting', uid, next };
    this.emit({ kind: 'lift', uid, text: `Take ${what} off ${this.options.station}` });
  }

  private tagLeft(next: Item | undefined): void {
    if (next !== undefined) this.ask(next);
    else this.askNext();
  }

  private askNext(): void {
    const item = missingItems(this.current, this.options.items)[0];
    if (item === undefined) {
      this.state = { kind: 'finished', ok: true };
      this.emit({ kind: 'done', progress: this.progress() });
      return;
    }
    this.ask(item);
  }

  private ask(item: Item): void {
    this.state = { kind: 'asking', item };
    this.emit({ kind: 'place', item, text: `Place ${describeItem(item)} on ${this.options.station}`, progress: this.progress() });
  }

  private emit(update: EnrollUpdate): void {
    this.options.onUpdate(update);
  }
}

function sameUid(a: string, b: string): boolean {
  return (normaliseUid(a) ?? a) === (normaliseUid(b) ?? b);
}
