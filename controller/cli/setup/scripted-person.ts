/**
 * The scripted "person" of `--simulate`: it reads the prompts a set-up flow gives and does what they say on
 * the simulated table, after a human-ish pause, so the commands can be demonstrated and tested end to end
 * without hardware. Tags get generated 7-byte NTAG UIDs (seeded: the same seed gives the same tags).
 *
 * The enrolling person makes one deliberate mistake — it puts the first tag of the run back for the third
 * item — so that a demonstration also shows a duplicate being refused.
 */
import { SeededRandom } from '../../kernel/random.ts';
import type { SimulatedTable, StationId } from '../../hardware/index.ts';
import type { Scheduler } from '../../runtime/ports.ts';
import { itemKey, type Item } from '../../runtime/registry/items.ts';
import { tagOf, type TagRegistry } from '../../runtime/registry/tag-registry.ts';
import type { CalibrateUpdate } from '../../runtime/setup/calibrate-types.ts';
import type { EnrollUpdate } from '../../runtime/setup/enroll-session.ts';

/** How long the person takes to react to a prompt, ms. */
const HAND_MS = 100;

/** Simulated barrel weights: an empty barrel and one stone (g). A real box is learned by `calibrate`. */
export const SIMULATED_EMPTY_BARREL_GRAMS = 18.4;
export const SIMULATED_STONE_GRAMS = 3.7;
const CARD_GRAMS = 1.8;

export function simulatedGrams(item: Item): number {
  return item.kind === 'barrel' ? Math.round((SIMULATED_EMPTY_BARREL_GRAMS + item.value * SIMULATED_STONE_GRAMS) * 10) / 10 : CARD_GRAMS;
}

export class EnrollPerson {
  private readonly uids = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly random: SeededRandom;
  private placed = 0;
  private mistakeMade = false;
  private first: string | undefined;

  constructor(
    private readonly table: SimulatedTable,
    private readonly station: StationId,
    private readonly scheduler: Scheduler,
    seed: string,
    /** Tags already in the registry: a resumed run must not "find" them on new items. */
    taken: Iterable<string>,
  ) {
    this.random = new SeededRandom(`enroll:${seed}`);
    for (const uid of taken) this.used.add(uid);
  }

  /** Reacts to one update of the enrollment flow. */
  react(update: EnrollUpdate): void {
    if (update.kind === 'place') {
      const uid = this.chooseTag(update.item);
      this.scheduler.after(HAND_MS, () => {
        this.table.placeItem(this.station, { uid, grams: simulatedGrams(update.item) });
      });
    } else if (update.kind === 'rejected' && this.uids.get(itemKey(update.item)) === update.uid) {
      // Its own tag for this item was refused (not the deliberate mistake): take a fresh one next time.
      this.uids.delete(itemKey(update.item));
    } else if (update.kind === 'lift') {
      this.scheduler.after(HAND_MS, () => {
        this.table.liftItem(this.station, update.uid);
      });
    }
  }

  private chooseTag(item: Item): string {
    this.placed++;
    if (!this.mistakeMade && this.placed === 3 && this.first !== undefined) {
      this.mistakeMade = true;
      return this.first;
    }
    const key = itemKey(item);
    let uid = this.uids.get(key);
    if (uid === undefined) {
      do uid = `04${Array.from({ length: 6 }, () => this.random.int(256).toString(16).padStart(2, '0')).join('').toUpperCase()}`;
      while (this.used.has(uid));
      this.used.add(uid);
      this.uids.set(key, uid);
    }
    this.first ??= uid;
    return uid;
  }
}

/**
 * The simulated known weight carries a tag only because the simulated pad takes masses off by their tag;
 * the flow ignores tags while it calibrates a scale.
 */
const KNOWN_WEIGHT_UID = 'CA11B0A7';

/** How often the person retries a failed step before giving up. */
const MAX_RETRIES = 3;

export class CalibratePerson {
  private retries = 0;

  constructor(
    private readonly table: SimulatedTable,
    private readonly registry: TagRegistry,
    private readonly scheduler: Scheduler,
    /** Says a step is done (Enter). */
    private readonly confirm: () => void,
    /** Gives up (Ctrl-C) after repeated failures. */
    private readonly giveUp: () => void,
  ) {}

  react(update: CalibrateUpdate): void {
    if (update.kind === 'failed') {
      if (++this.retries > MAX_RETRIES) this.giveUp();
      else this.later(this.confirm);
      return;
    }
    if (update.kind !== 'step') return;
    const step = update.step;
    switch (step.kind) {
      case 'clear-pad':
        this.later(this.confirm);
        return;
      case 'place-known':
        this.later(() => {
          this.table.placeItem(step.station, { uid: KNOWN_WEIGHT_UID, grams: step.grams });
        });
        // Enter once the mass has come to rest (the pad settles in 300 ms).
        this.scheduler.after(HAND_MS + 700, this.confirm);
        return;
      case 'remove-known':
        this.later(() => {
          this.table.liftItem(step.station, KNOWN_WEIGHT_UID);
        });
        return;
      case 'place-barrel': {
        const item: Item = { kind: 'barrel', value: step.barrel };
        const uid = tagOf(this.registry, item);
        if (uid === undefined) {
          this.giveUp();
          return;
        }
        this.later(() => {
          this.table.placeItem(step.station, { uid, grams: simulatedGrams(item) });
        });
        return;
      }
      case 'lift':
        this.later(() => {
          this.table.liftItem(step.station, step.uid);
        });
        return;
    }
  }

  private later(fn: () => void): void {
    this.scheduler.after(HAND_MS, fn);
  }
}
