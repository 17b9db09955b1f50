/**
 * The parametric board model of rules-spec B.2.5. The real board layout was never seen (ZAPP-Q-1), so the
 * engine never hard-codes it: a board is JSON data, checked here once, field by field, and every error is
 * reported at once with its JSON path (design principle 9).
 */
import type { Checked } from '../../kernel/result.ts';

/** The four player colours. */
export type Colour = 'RED' | 'GREEN' | 'BLUE' | 'YELLOW';

/** All colours, in the default seat order (ZAPP-4). */
export const COLOURS: readonly Colour[] = ['RED', 'GREEN', 'BLUE', 'YELLOW'];

/** Whether a layout was measured on a physical board (B.2.6) or inferred from the sources (B.2.3). */
export type Provenance = 'INFERRED_DEFAULT' | 'MEASURED';

/** One track field. COLOUR fields protect their colour (ZAPP-51); NEUTRAL fields carry two castles (F2). */
export type FieldSpec =
  | { readonly idx: number; readonly type: 'COLOUR'; readonly colour: Colour; readonly label?: string; readonly sensorId?: string }
  | {
    readonly idx: number;
    readonly type: 'NEUTRAL';
    /** Two distinct colours; in PRO they say who is protected and carryable there (ZAPP-61, ZAPP-63). */
    readonly castles: readonly [Colour, Colour];
    readonly label?: string;
    readonly sensorId?: string;
  };

/** Where a colour joins and leaves the circuit (F4, F5). */
export interface HomeSpec {
  readonly colour: Colour;
  /** The field step 1 from START lands on (ZAPP-47). */
  readonly entryField: number;
  /** The field from which the next step enters the city (ZAPP-43, ZAPP-44). */
  readonly lastField: number;
  /** Node ids for the table hardware and the dashboard; not used by the rules. */
  readonly startNodeId: string;
  readonly cityNodeId: string;
}

/** A complete, validated board. Plain JSON; shared by reference between states. */
export interface BoardSpec {
  /** A short name ("default", "alt-a", "cafe-box-2"). */
  readonly id: string;
  readonly description?: string;
  readonly provenance: Provenance;
  /** Number of track fields N; indices 0..N−1. Must exceed the largest move (12), invariant 4. */
  readonly trackLength: number;
  /** Movement direction along the indices (F6: clockwise). */
  readonly clockwiseIsIncreasing: boolean;
  /** `fields[i].idx === i`. */
  readonly fields: readonly FieldSpec[];
  readonly homes: Readonly<Record<Colour, HomeSpec>>;
}

/** The largest possible move (dice sum 12), so a path never visits a field twice when `trackLength > 12`. */
export const MAX_MOVE = 12;

/** Result of `parseBoardSpec`. */
export type BoardParseResult = Checked<{ readonly board: BoardSpec; readonly warnings: readonly string[] }>;

/** Whether a value is one of the four colours. */
export function isColour(value: unknown): value is Colour {
  return value === 'RED' || value === 'GREEN' || value === 'BLUE' || value === 'YELLOW';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(obj: Record<string, unknown>, key: string, path: string, errors: string[]): string | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') errors.push(`${path}.${key}: must be a string`);
  return typeof v === 'string' ? v : undefined;
}

function parseField(raw: unknown, i: number, errors: string[]): FieldSpec | undefined {
  const path = `$.fields[${i}]`;
  if (!isRecord(raw)) {
    errors.push(`${path}: must be an object`);
    return undefined;
  }
  const before = errors.length;
  if (raw.idx !== i) errors.push(`${path}.idx: must equal its position ${i}; got ${JSON.stringify(raw.idx)}`);
  const label = optionalString(raw, 'label', path, errors);
  const sensorId = optionalString(raw, 'sensorId', path, errors);
  const extra = { ...(label === undefined ? {} : { label }), ...(sensorId === undefined ? {} : { sensorId }) };
  if (raw.type === 'COLOUR') {
    if (!isColour(raw.colour)) errors.push(`${path}.colour: must be RED, GREEN, BLUE or YELLOW on a COLOUR field`);
    if (raw.castles !== undefined) errors.push(`${path}.castles: only NEUTRAL fields have castles`);
    return errors.length === before && isColour(raw.colour) ? { idx: i, type: 'COLOUR', colour: raw.colour, ...extra } : undefined;
  }
  if (raw.type === 'NEUTRAL') {
    const c = raw.castles;
    // Invariant 2: every NEUTRAL field shows two distinct castle colours.
    if (!Array.isArray(c) || c.length !== 2 || !isColour(c[0]) || !isColour(c[1]) || c[0] === c[1]) {
      errors.push(`${path}.castles: a NEUTRAL field needs two distinct castle colours (invariant 2); got ${JSON.stringify(c)}`);
      return undefined;
    }
    if (raw.colour !== undefined) errors.push(`${path}.colour: a NEUTRAL field has castles, not a colour`);
    return errors.length === before ? { idx: i, type: 'NEUTRAL', castles: [c[0], c[1]], ...extra } : undefined;
  }
  errors.push(`${path}.type: must be "COLOUR" or "NEUTRAL"; got ${JSON.stringify(raw.type)}`);
  return undefined;
}

function parseHome(raw: unknown, colour: Colour, n: number | undefined, errors: string[]): HomeSpec | undefined {
  const path = `$.homes.${colour}`;
  if (!isRecord(raw)) {
    errors.push(`${path}: missing; every colour needs a home (START, entry, last field, city)`);
    return undefined;
  }
  const before = errors.length;
  if (raw.colour !== undefined && raw.colour !== colour) errors.push(`${path}.colour: must be ${colour}; got ${JSON.stringify(raw.colour)}`);
  for (const key of ['entryField', 'lastField'] as const) {
    const v = raw[key];
    const inRange = typeof v === 'number' && Number.isInteger(v) && v >= 0 && (n === undefined || v < n);
    if (!inRange) errors.push(`${path}.${key}: must be a field index 0..${n === undefined ? 'N' : n - 1}; got ${JSON.stringify(v)}`);
  }
  const startNodeId = optionalString(raw, 'startNodeId', path, errors) ?? `START_${colour}`;
  const cityNodeId = optionalString(raw, 'cityNodeId', path, errors) ?? `CITY_${colour}`;
  if (errors.length !== before) return undefined;
  return { colour, entryField: raw.entryField as number, lastField: raw.lastField as number, startNodeId, cityNodeId };
}

/** Invariant 3: entry fields pairwise distinct, last fields pairwise distinct. */
function checkDistinct(homes: Partial<Record<Colour, HomeSpec>>, key: 'entryField' | 'lastField', errors: string[]): void {
  const seen = new Map<number, Colour>();
  for (const colour of COLOURS) {
    const home = homes[colour];
    if (!home) continue;
    const other = seen.get(home[key]);
    if (other) errors.push(`$.homes.${colour}.${key}: field ${home[key]} is also the ${key} of ${other} (invariant 3)`);
    else seen.set(home[key], colour);
  }
}

/** Invariant 5 (a warning only): each colour's COLOUR fields should form one contiguous stretch (F3). */
function contiguityWarnings(fields: readonly FieldSpec[]): string[] {
  const warnings: string[] = [];
  const n = fields.length;
  for (const colour of COLOURS) {
    let runs = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const f = fields[i];
      const prev = fields[(i + n - 1) % n];
      const is = f?.type === 'COLOUR' && f.colour === colour;
      if (is) count++;
      if (is && !(prev?.type === 'COLOUR' && prev.colour === colour)) runs++;
    }
    if (count > 0 && runs > 1) warnings.push(`$.fields: the ${colour} fields form ${runs} separate stretches, not one (invariant 5)`);
  }
  return warnings;
}

/**
 * Checks an unknown JSON value against every invariant of rules-spec B.2.5 and returns a normalised board
 * (unknown keys dropped, node ids defaulted) or every error found, each prefixed with its JSON path.
 */
export function parseBoardSpec(json: unknown): BoardParseResult {
  const errors: string[] = [];
  if (!isRecord(json)) return { ok: false, errors: ['$: a board must be a JSON object'] };
  const id = json.id === undefined ? 'custom' : json.id;
  if (typeof id !== 'string' || id === '') errors.push('$.id: must be a non-empty string');
  const description = optionalString(json, 'description', '$', errors);
  if (json.provenance !== 'INFERRED_DEFAULT' && json.provenance !== 'MEASURED') {
    errors.push(`$.provenance: must be "INFERRED_DEFAULT" or "MEASURED"; got ${JSON.stringify(json.provenance)}`);
  }
  const cw = json.clockwiseIsIncreasing ?? true;
  if (typeof cw !== 'boolean') errors.push('$.clockwiseIsIncreasing: must be a boolean');
  const n = json.trackLength;
  const nOk = typeof n === 'number' && Number.isInteger(n) && n > MAX_MOVE;
  // Invariant 4: maxMove (12) < trackLength, so no move can pass the same field twice.
  if (!nOk) errors.push(`$.trackLength: must be an integer greater than ${MAX_MOVE} (invariant 4); got ${JSON.stringify(n)}`);
  const fields: FieldSpec[] = [];
  if (!Array.isArray(json.fields)) {
    errors.push('$.fields: must be an array');
  } else {
    // Invariant 1: fields.length == trackLength.
    if (nOk && json.fields.length !== n) errors.push(`$.fields: has ${json.fields.length} fields but trackLength is ${n} (invariant 1)`);
    json.fields.forEach((raw, i) => {
      const f = parseField(raw, i, errors);
      if (f) fields.push(f);
    });
  }
  const homes: Partial<Record<Colour, HomeSpec>> = {};
  if (!isRecord(json.homes)) {
    errors.push('$.homes: must be an object with RED, GREEN, BLUE and YELLOW');
  } else {
    for (const key of Object.keys(json.homes)) if (!isColour(key)) errors.push(`$.homes.${key}: not a colour`);
    for (const colour of COLOURS) {
      const h = parseHome(json.homes[colour], colour, nOk ? n : undefined, errors);
      if (h) homes[colour] = h;
    }
    checkDistinct(homes, 'entryField', errors);
    checkDistinct(homes, 'lastField', errors);
  }
  if (errors.length > 0) return { ok: false, errors };
  const board: BoardSpec = {
    id: id as string,
    ...(description === undefined ? {} : { description }),
    provenance: json.provenance as Provenance,
    trackLength: n as number,
    clockwiseIsIncreasing: cw as boolean,
    fields,
    homes: homes as Record<Colour, HomeSpec>,
  };
  return { ok: true, board, warnings: contiguityWarnings(fields) };
}
