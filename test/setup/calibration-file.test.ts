/**
 * The calibration file: round trip, every problem reported at once with its path, a corrupted file left
 * untouched.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMPTY_CALIBRATION, loadCalibration, parseCalibration, saveCalibration, type Calibration,
} from '../../controller/runtime/calibration/calibration-file.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const tempFile = (): string => {
  dir = mkdtempSync(path.join(tmpdir(), 'zaptable-cal-'));
  return path.join(dir, 'calibration.json');
};

const SAMPLE: Calibration = {
  version: 1,
  stations: { 'seat-1': { tareAt: '2025-05-01T12:00:00.000Z', knownGrams: 500, calibratedAt: '2025-05-01T12:00:02.000Z', perKg: 420_000 } },
  barrels: {
    weights: { emptyGrams: 21.5, stoneGrams: 4.2, rmsResidualGrams: 0.1, samples: 3 },
    samples: [{ barrel: 1, grams: 25.7, uid: '04010000000000' }, { barrel: 13, grams: 76.1, uid: '040D0000000000', flagged: true }],
    station: 'seat-1',
    learnedAt: '2025-05-01T12:01:00.000Z',
  },
  cardGrams: 1.8,
};

describe('calibration file', () => {
  it('round-trips, and a missing file is an empty calibration', () => {
    const file = tempFile();
    expect(loadCalibration(file)).toEqual({ ok: true, calibration: EMPTY_CALIBRATION, created: true });
    saveCalibration(file, SAMPLE);
    expect(loadCalibration(file)).toEqual({ ok: true, calibration: SAMPLE, created: false });
  });

  it('reports every problem at once, each with its path', () => {
    const parsed = parseCalibration({
      version: 2,
      stations: { 'bad id!': { tareAt: 'yesterday', knownGrams: 0.5, calibratedAt: '2025-05-01T12:00:00Z' } },
      barrels: { weights: { emptyGrams: 20, stoneGrams: 0.1, rmsResidualGrams: 0, samples: 3 }, samples: [{ barrel: 14, grams: 'x', uid: 1 }], station: 'seat-1', learnedAt: 'now' },
      cardGrams: -1,
      extra: true,
    });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors).toEqual([
      'version: must be 1',
      'stations.bad id!: not a station id (1–16 of A–Z a–z 0–9 . _ -)',
      'stations.bad id!.tareAt: must be an ISO 8601 time',
      'stations.bad id!.knownGrams: must be an integer from 1 to 100000',
      'barrels.weights.stoneGrams: must be a number ≥ 0.5',
      'barrels.samples[0].barrel: must be an integer from 1 to 13',
      'barrels.samples[0].grams: must be a number',
      'barrels.samples[0].uid: must be a string',
      'barrels.learnedAt: must be an ISO 8601 time',
      'cardGrams: must be a number > 0',
      'extra: unknown key',
    ]);
  });

  it('a corrupted file is CALIBRATION_CORRUPT and left untouched', () => {
    const file = tempFile();
    writeFileSync(file, '{"version": 1, "stations": {');
    const loaded = loadCalibration(file);
    expect(loaded).toMatchObject({ ok: false, code: 'CALIBRATION_CORRUPT' });
    expect(!loaded.ok && loaded.errors[0]).toContain('left untouched');
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "stations": {');
    writeFileSync(file, '{"version": 1, "stations": []}');
    expect(loadCalibration(file)).toMatchObject({ ok: false, code: 'CALIBRATION_CORRUPT', errors: [`${file}: stations: must be an object of station id → calibration`] });
  });
});
