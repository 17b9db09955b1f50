/**
 * The calibration file (default `data/calibration.json`): when each station's scale was tared and calibrated
 * and with which known mass, the learned barrel weights with the samples they came from, and optionally the
 * weight of one card (Zip-Zap hand-count cross-checks). Versioned and validated with every problem reported
 * at once; written atomically (json-file.ts). A corrupted file is an error, never silently replaced: it holds
 * the only record of how the barrels weighed.
 */
import type { Checked, Invalid, Ok } from '../../kernel/result.ts';
import { isValidStationId } from '../../protocol/index.ts';
import { loadJsonDocument, writeJsonAtomic } from '../json-file.ts';
import type { BarrelWeights } from './barrel-weights.ts';

export const CALIBRATION_VERSION = 1;

/** One station's scale, as the last `zaptable calibrate` left it. */
export interface StationCalibration {
  /** When `tare` succeeded (ISO 8601). */
  readonly tareAt: string;
  /** The known mass used for `calibrate`, g. */
  readonly knownGrams: number;
  /** When `calibrate` succeeded (ISO 8601). */
  readonly calibratedAt: string;
  /** The station's replies, for diagnosis (HX711 zero in counts, counts per kg). */
  readonly tareCounts?: number;
  readonly perKg?: number;
  /** The settled weight read back with the known mass still on the pad, g. */
  readonly verifiedGrams?: number;
}

/** A barrel weighed while learning. */
export interface BarrelSample {
  /** The barrel (= its stone count), as its tag says. */
  readonly barrel: number;
  readonly grams: number;
  readonly uid: string;
  /** Left out of the fit because its weight disagreed with the others (a wrongly filled or labelled barrel). */
  readonly flagged?: boolean;
}

export interface LearnedBarrels {
  readonly weights: BarrelWeights;
  readonly samples: readonly BarrelSample[];
  /** The pad they were weighed on. */
  readonly station: string;
  readonly learnedAt: string;
}

export interface Calibration {
  readonly version: typeof CALIBRATION_VERSION;
  readonly stations: Readonly<Record<string, StationCalibration>>;
  readonly barrels?: LearnedBarrels;
  /** Weight of one Zip-Zap card (sleeved), g. */
  readonly cardGrams?: number;
}

export const EMPTY_CALIBRATION: Calibration = { version: CALIBRATION_VERSION, stations: {} };

export type LoadCalibration =
  | Ok<{ readonly calibration: Calibration; readonly created: boolean }>
  | (Invalid & { readonly code: 'CALIBRATION_UNREADABLE' | 'CALIBRATION_CORRUPT' });

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIsoTime(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v));
}

function checkNumber(
  errors: string[], at: string, v: unknown, test: (n: number) => boolean, what: string, optional = false,
): void {
  if (optional && v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || !test(v)) errors.push(`${at}: must be ${what}`);
}

function checkStation(errors: string[], id: string, v: unknown): void {
  const at = `stations.${id}`;
  if (!isValidStationId(id)) errors.push(`${at}: not a station id (1–16 of A–Z a–z 0–9 . _ -)`);
  if (!isObject(v)) {
    errors.push(`${at}: must be an object`);
    return;
  }
  for (const key of ['tareAt', 'calibratedAt'] as const) if (!isIsoTime(v[key])) errors.push(`${at}.${key}: must be an ISO 8601 time`);
  checkNumber(errors, `${at}.knownGrams`, v.knownGrams, (n) => Number.isInteger(n) && n >= 1 && n <= 100_000, 'an integer from 1 to 100000');
  checkNumber(errors, `${at}.tareCounts`, v.tareCounts, Number.isInteger, 'an integer', true);
  checkNumber(errors, `${at}.perKg`, v.perKg, Number.isInteger, 'an integer', true);
  checkNumber(errors, `${at}.verifiedGrams`, v.verifiedGrams, () => true, 'a number', true);
}

function checkBarrels(errors: string[], v: unknown): void {
  if (!isObject(v)) {
    errors.push('barrels: must be an object');
    return;
  }
  const w = v.weights;
  if (!isObject(w)) errors.push('barrels.weights: must be an object');
  else {
    checkNumber(errors, 'barrels.weights.emptyGrams', w.emptyGrams, (n) => n >= 0, 'a number ≥ 0');
    // The same floor fitBarrelWeights applies: a lighter stone cannot be counted.
    checkNumber(errors, 'barrels.weights.stoneGrams', w.stoneGrams, (n) => n >= 0.5, 'a number ≥ 0.5');
    checkNumber(errors, 'barrels.weights.rmsResidualGrams', w.rmsResidualGrams, (n) => n >= 0, 'a number ≥ 0');
    checkNumber(errors, 'barrels.weights.samples', w.samples, (n) => Number.isInteger(n) && n >= 2, 'an integer ≥ 2');
  }
  if (!Array.isArray(v.samples)) errors.push('barrels.samples: must be an array');
  else {
    v.samples.forEach((s: unknown, i) => {
      const at = `barrels.samples[${i}]`;
      if (!isObject(s)) {
        errors.push(`${at}: must be an object`);
        return;
      }
      checkNumber(errors, `${at}.barrel`, s.barrel, (n) => Number.isInteger(n) && n >= 1 && n <= 13, 'an integer from 1 to 13');
      checkNumber(errors, `${at}.grams`, s.grams, () => true, 'a number');
      if (typeof s.uid !== 'string') errors.push(`${at}.uid: must be a string`);
      if (s.flagged !== undefined && typeof s.flagged !== 'boolean') errors.push(`${at}.flagged: must be true or false`);
    });
  }
  if (typeof v.station !== 'string' || !isValidStationId(v.station)) errors.push('barrels.station: must be a station id');
  if (!isIsoTime(v.learnedAt)) errors.push('barrels.learnedAt: must be an ISO 8601 time');
}

/** Validates a parsed JSON value as a calibration; reports every problem at once, each with its path. */
export function parseCalibration(value: unknown): Checked<{ calibration: Calibration }> {
  if (!isObject(value)) return { ok: false, errors: ['(root): must be a JSON object'] };
  const errors: string[] = [];
  if (value.version !== CALIBRATION_VERSION) errors.push(`version: must be ${CALIBRATION_VERSION}`);
  if (!isObject(value.stations)) errors.push('stations: must be an object of station id → calibration');
  else for (const [id, station] of Object.entries(value.stations)) checkStation(errors, id, station);
  if (value.barrels !== undefined) checkBarrels(errors, value.barrels);
  checkNumber(errors, 'cardGrams', value.cardGrams, (n) => n > 0, 'a number > 0', true);
  const known = new Set(['version', 'stations', 'barrels', 'cardGrams']);
  for (const key of Object.keys(value)) if (!known.has(key)) errors.push(`${key}: unknown key`);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, calibration: value as unknown as Calibration };
}

/** A missing file is an empty calibration; a corrupted one is an error and is left untouched. */
export function loadCalibration(file: string): LoadCalibration {
  const loaded = loadJsonDocument(file, EMPTY_CALIBRATION, (value) => {
    const parsed = parseCalibration(value);
    return parsed.ok ? { ok: true, document: parsed.calibration } : parsed;
  }, { unreadable: 'CALIBRATION_UNREADABLE', corrupt: 'CALIBRATION_CORRUPT' });
  return loaded.ok ? { ok: true, calibration: loaded.document, created: loaded.created } : loaded;
}

/** Writes atomically: a crash mid-write leaves the previous file whole. */
export function saveCalibration(file: string, calibration: Calibration): void {
  writeJsonAtomic(file, calibration);
}
