/**
 * Event lines → the hardware interface's typed `SensorEvent`s. Pure.
 *
 * Not every line becomes a sensor event: an unsettled weight (`W … U`) is the filter saying "moving",
 * which the runtime has no use for (it acts on settled weights), and `FAULT±` is about the station's
 * health, not the game; both still advance the station's clock and sequence.
 */
import type { EventMessage } from '../../protocol/index.ts';
import type { EventTime, SensorEvent, StationId } from '../interface.ts';

/** The name of a seat station's one button in `button-pressed`/`button-released` events. */
export const SEAT_BUTTON = 'zap';

export function toSensorEvent(station: StationId, message: EventMessage, time: EventTime): SensorEvent | undefined {
  const base = { station, time, seq: message.seq };
  switch (message.event) {
    case 'TAG+': return { ...base, kind: 'tag-arrived', uid: message.uid };
    case 'TAG-': return { ...base, kind: 'tag-left', uid: message.uid };
    case 'W': return message.stable ? { ...base, kind: 'weight-settled', grams: message.grams } : undefined;
    case 'BTN+': return { ...base, kind: 'button-pressed', button: SEAT_BUTTON };
    case 'BTN-': return { ...base, kind: 'button-released', button: SEAT_BUTTON };
    // A slap names no item: it dates the TAG+ that follows (the driver matches them, slap-matching.ts).
    case 'SLAP': return { ...base, kind: 'slap' };
    case 'FAULT+':
    case 'FAULT-': return undefined;
  }
}
