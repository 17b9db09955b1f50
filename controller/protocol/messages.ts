/**
 * Typed messages of the zaptable line protocol (hardware/protocol.md). These are the decoded forms the
 * codec produces and formats; the shared test vectors (test/vectors/protocol-vectors.json) hold them as
 * JSON, so every field is plain data.
 */

/** Protocol version this codec speaks and the firmware of this repository announces (the banner's `proto=`). */
export const PROTOCOL_VERSION = 2;
/**
 * Versions a host still accepts: version 1 (firmware 0.1–0.2) sends `TAG±` without their window, so its tag
 * times carry a wide, conservative interval (hardware/protocol.md, *Changes*).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1, 2];
/** Longest line in either direction, in bytes before the `\n`, including the `*XX` checksum. */
export const MAX_LINE = 96;
/** Largest command id. */
export const MAX_COMMAND_ID = 65535;

export type StationKind = 'seat' | 'pile';

/** `ZT <fw> proto=<n> kind=<seat|pile> id=<station> boot=<n>` — printed once at every start. */
export interface BannerMessage {
  readonly type: 'banner';
  /** Firmware version, `major.minor.patch`. */
  readonly fw: string;
  /** Protocol version; a host refuses a station whose version it does not speak. */
  readonly proto: number;
  readonly kind: StationKind;
  /** Station id (1..16 of `[A-Za-z0-9._-]`), set with `id set`. */
  readonly station: string;
  /** Boot counter from EEPROM (wraps at 2^32): a new value means the station has restarted. */
  readonly boot: number;
}

interface EventBase {
  readonly type: 'event';
  /** Event sequence number: 0 for the first event after boot, +1 per event, wraps at 2^32. */
  readonly seq: number;
  /** Device time in µs (`micros()`, low 32 bits, wraps every ~71.6 min; unwrapped by hardware/clock/device-time.ts). */
  readonly t: number;
}

/**
 * A tag arrived on (`TAG+`) or left (`TAG-`) the reader. UID: 4, 7 or 10 bytes in uppercase hex.
 *
 * `windowUs` (protocol 2): the change happened in device time `[t − windowUs, t]`. For `TAG+`, `t` is the poll
 * that first read the tag and `t − windowUs` the last poll before it that got no answer from a new tag (the
 * tag's power-up time comes on top: a tag already in the field at that poll may not have answered yet); for
 * `TAG-`, `t` is the first presence check the tag missed and `t − windowUs` the last one it answered. Absent on
 * protocol 1 lines.
 */
export interface TagEvent extends EventBase {
  readonly event: 'TAG+' | 'TAG-';
  readonly uid: string;
  readonly windowUs?: number;
}

/** Weight on the pad, in grams with one decimal; `stable` once the stability filter has settled. */
export interface WeightEvent extends EventBase {
  readonly event: 'W';
  readonly grams: number;
  readonly stable: boolean;
}

/** The ZAP button was pressed (`BTN+`) or released (`BTN-`); `t` is the first edge of the change. */
export interface ButtonEvent extends EventBase {
  readonly event: 'BTN+' | 'BTN-';
}

/**
 * A card or barrel hit the pad (protocol 2): the piezo "slap" sensor under it crossed its threshold; `t` is
 * the first edge, taken in the interrupt like a button's. The `TAG+` that follows names what landed.
 */
export interface SlapEvent extends EventBase {
  readonly event: 'SLAP';
}

export type FaultDevice = 'rfid' | 'scale';

/** A sensor stopped answering (`FAULT+`) or answers again (`FAULT-`). */
export interface FaultEvent extends EventBase {
  readonly event: 'FAULT+' | 'FAULT-';
  readonly device: FaultDevice;
}

export type EventMessage = TagEvent | WeightEvent | ButtonEvent | SlapEvent | FaultEvent;
export type EventName = EventMessage['event'];

/** `ok <id> [key=value ...]` — a command succeeded. The fields depend on the command (see protocol.md). */
export interface OkReply {
  readonly type: 'ok';
  readonly id: number;
  /** Result fields in line order; values are undecoded text (the host knows which command it sent). */
  readonly fields: Readonly<Record<string, string>>;
}

/** `err <id|-> <code>` — a command failed; `id` is null when the station could not read the id. */
export interface ErrReply {
  readonly type: 'err';
  readonly id: number | null;
  /** A code of the catalogue in errors.ts (a newer firmware may send codes this host does not know). */
  readonly code: number;
}

/** Every line a station sends. */
export type DeviceMessage = BannerMessage | EventMessage | OkReply | ErrReply;

interface CommandBase {
  /** Command id 0..65535, echoed in the reply. */
  readonly id: number;
}

/** Commands without arguments. `ping` answers `ok <id> t=<device µs>`. */
export interface SimpleCommand extends CommandBase {
  readonly verb: 'ping' | 'info' | 'lamp-on' | 'lamp-off' | 'tare' | 'raw' | 'scale' | 'stream-on' | 'stream-off';
}

/** `lamp blink <onMs> <offMs> <count>`: count 0 blinks until the next lamp command. */
export interface BlinkCommand extends CommandBase {
  readonly verb: 'lamp-blink';
  /** 10..60000 ms. */
  readonly onMs: number;
  /** 10..60000 ms. */
  readonly offMs: number;
  /** 0..65535 cycles, 0 = forever; the lamp is off afterwards. */
  readonly count: number;
}

/** `calibrate <grams>`: a known mass of 1..100000 g lies on the pad (after `tare` with it empty). */
export interface CalibrateCommand extends CommandBase {
  readonly verb: 'calibrate';
  readonly grams: number;
}

/** `id set <station>`: stores a new station id in EEPROM. */
export interface IdSetCommand extends CommandBase {
  readonly verb: 'id-set';
  readonly station: string;
}

/** Every line a host sends. */
export type Command = SimpleCommand | BlinkCommand | CalibrateCommand | IdSetCommand;
export type CommandVerb = Command['verb'];
