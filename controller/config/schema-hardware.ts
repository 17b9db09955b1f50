/**
 * The `hardware:` section: a simulated table or serial seat stations, and an optional johnny-five buzzer hub.
 * Defaults follow hardware/protocol.md (115200 baud) and the serial driver's own defaults.
 */
import { Type } from '@sinclair/typebox';
import { Choice, Ms, Section } from './schema-helpers.ts';
import { StationId } from './schema-tables.ts';

/**
 * USB vendor ids of the boards stations are built on: Arduino (2341, 2a03), the CH340 clones' bridge (1a86),
 * FTDI (0403) and Silicon Labs CP210x (10c4).
 */
export const DEFAULT_VENDOR_IDS = ['2341', '2a03', '1a86', '0403', '10c4'] as const;

const PortPath = Type.String({ minLength: 1, description: 'A serial port path.' });

const Simulated = Section({
  bots: Type.Boolean({ default: true, description: 'Bots play every seat (a seat\'s `bot` overrides this).' }),
  speed: Type.Number({
    default: 1, exclusiveMinimum: 0, maximum: 100,
    description: 'How fast the simulated world runs: 1 = real time (bots think like people), 10 = ten times faster.',
  }),
  pileStation: Type.Boolean({ default: true, description: 'Simulate a pile station for every table whose game uses one (zip-zap, killer-21).' }),
  slapSensors: Choice(['pile', 'all', 'none'] as const, {
    default: 'pile',
    description: 'Which simulated stations have a piezo slap sensor under their pad (it dates a card landing to the µs; '
      + 'docs/timing.md §3): `pile` (where cards race onto one top card; the seats then show the tag-window path), `all` or `none`.',
  }),
}, { default: {}, description: 'The simulated table (the demo, tests and dashboard development).' });

/** A whole number of µs ≥ 0 (a physical allowance: every figure is a bound, not a typical value). */
const Us = (defaultUs: number, description: string) => Type.Integer({
  minimum: 0, maximum: 10_000_000, default: defaultUs, description,
});

/**
 * The physical allowances behind every sensor event's interval (docs/timing.md §3). The defaults are
 * controller/hardware/serial/event-interval.ts's `DEFAULT_SENSOR_TIMING` (a test keeps them equal).
 */
const Intervals = Section({
  isrLatencyUs: Us(80, 'How long before its stamp a button or slap edge may have been: another interrupt running or queued '
    + 'ahead (serial, timer: a few µs each; the HX711 read turns interrupts off for ~1 µs per pulse only) and the 4 µs step of '
    + 'micros(): ~10 µs expected, 80 µs with a wide margin.'),
  tagPowerUpUs: Us(5000, 'How long a tag entering the field may take before it answers a poll (power-up and reset; ISO 14443 '
    + 'allows 5 ms): a tag\'s arrival is widened by it, since it may have been there, waking, at the last poll that missed it.'),
  legacyTagCycleUs: Us(150_000, 'Protocol 1 stations (firmware 0.1–0.2) send tags without their window: assume the longest '
    + 'inventory cycle they have (13 tags with 7-byte UIDs: ~132 ms) with margin.'),
  weightWindowUs: Us(600_000, 'How long before a settled weight\'s stamp the load may have come to rest: the stability filter\'s '
    + '5 samples at 10/s plus one sample interval.'),
}, { default: {}, description: 'The sensor intervals: how long before its stamp each event may have happened (docs/timing.md §3).' });

/** Slap matching (docs/timing.md §3); defaults: `DEFAULT_SLAP_MATCH_TIMING` and `DEFAULT_SLAP_HOLD_MAX_MS`. */
const SlapMatching = Section({
  burstUs: Us(30_000, 'On a station with a slap sensor, a tag arrival waits until a line stamped this long after its read has '
    + 'arrived (the driver pings for one): by then every other tag read in the same poll window, and every slap before it, has '
    + 'been sent, so a slap that fits two tags is never given to one. Firmware 0.3.0 reads the next new card one poll (~1–3 ms) '
    + 'later; 30 ms leaves room for a failed read and a busy loop.'),
  slapWaitUs: Us(200_000, 'A slap that no tag has claimed this long after its stamp is logged as a knock on the table: '
    + 'the power-up, the next poll and the longest inventory cycle fit in it.'),
  maxHoldMs: Ms({
    default: 250, description: 'The longest a tag arrival waits for slap matching when its station sends no line at all (a stalled '
      + 'link): it is then decided on what has arrived. A ping reply normally comes within a few ms.',
  }, 1),
}, { default: {}, description: 'Matching slaps to the tag arrivals that follow them (docs/timing.md §3).' });

const Serial = Section({
  ports: Type.Union([Type.Literal('auto'), Type.Array(PortPath, { minItems: 1, uniqueItems: true })], {
    default: 'auto',
    description: '`auto`: every port whose USB vendor id is in `vendorIds`; or a list of port paths. '
      + 'Stations are identified by the id in their banner, never by port.',
    'x-message': 'must be auto or a list of port paths',
  }),
  vendorIds: Type.Array(Type.String({ pattern: '^[0-9a-fA-F]{4}$', 'x-message': 'must be 4 hex digits (e.g. 2341)' }), {
    default: [...DEFAULT_VENDOR_IDS], minItems: 1,
    description: 'USB vendor ids (4 hex digits) that `ports: auto` opens.',
  }),
  baudRate: Type.Integer({
    default: 115200, minimum: 1200, maximum: 2_000_000,
    description: 'Serial speed. The station firmware speaks 115200 (hardware/protocol.md): change it only with the firmware.',
  }),
  pingIntervalMs: Ms({ default: 100, description: 'Clock-sync ping interval per station (docs/timing.md: slower misses the timing goals).' }, 10),
  bannerTimeoutMs: Ms({ default: 3000, description: 'Wait this long for a station\'s banner after opening its port (an Uno resets and boots for ~2 s).' }, 1),
  commandTimeoutMs: Ms({ default: 3000, description: 'Reply timeout of a command (tare and calibrate take ~1 s).' }, 1),
  intervals: Intervals,
  slapMatching: SlapMatching,
}, { default: {}, description: 'Serial seat and pile stations (our firmware over USB).' });

const HubButton = Section({
  id: StationId('The station id this button reports as (a buzzer-mode seat\'s `station`).'),
  pin: Type.Integer({
    minimum: 0,
    description: 'Digital pin of the button, wired to GND (internal pull-up): 2–13, or A0–A5 as 14–19 on an Uno; never 0/1 (the serial link).',
  }),
  lamp: Type.Optional(Type.Integer({ minimum: 0, description: 'Pin of the button\'s lamp, numbered as `pin` (a PWM pin lets it pulse).', 'x-default-text': 'none' })),
}, { description: 'One big buzzer button.' });

const BuzzerHub = Section({
  port: Type.String({ minLength: 1, description: 'Serial port of the board running StandardFirmata (57600 baud).' }),
  buttons: Type.Array(HubButton, { minItems: 1, maxItems: 32, description: 'The buttons.' }),
  piezo: Type.Optional(Type.Integer({ minimum: 0, description: 'Pin of a passive piezo for the winner\'s beep, numbered as `pin`.', 'x-default-text': 'none' })),
  debounceMs: Ms({ default: 5, description: 'A change counts once the pin has been quiet this long (the event keeps the first edge\'s time).' }),
  hostDelayMs: Ms({
    default: 50,
    description: 'Allowance for the controller host\'s delay in reading a report (kernel, event loop): part of every hub stamp\'s '
      + 'uncertainty. 50 held for 93–100 % of edges at load average 8–25 on a shared 2-vCPU machine (docs/buzzer-hub.md); the running '
      + 'controller shows its own p99 on bridge/health and warns about edges above it: raise it to that p99, lower it only after measuring.',
  }, 1),
}, { description: 'A johnny-five buzzer hub for events: big buttons, lamps and a piezo.' });

export const Hardware = Section({
  kind: Choice(['simulated', 'serial'] as const, {
    default: 'simulated', description: '`simulated` (no hardware; bots can play) or `serial` (seat stations on USB).',
  }),
  simulated: Simulated,
  serial: Serial,
  buzzerHub: Type.Optional(BuzzerHub),
}, { default: {}, description: 'Where sensor events come from.' });
