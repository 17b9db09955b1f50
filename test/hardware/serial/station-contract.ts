/**
 * The station contract: what the serial driver and a station running our firmware guarantee each other,
 * written once and run against every kind of station — the simulated station on serialport's mock binding
 * (always) and a real board on a real port (when ZAPTABLE_SERIAL_PORT names one). Only behaviour a real
 * station shows without a person at the table is here; scripted physical events, line noise and
 * unplugging are in serial-driver.test.ts, against the simulated table.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frame, PROTOCOL_VERSION } from '../../../controller/protocol/index.ts';
import type { SerialStations } from '../../../controller/hardware/serial/serial-stations.ts';
import type { SerialStationHealth } from '../../../controller/hardware/serial/station-record.ts';

/** A driver attached to one station. */
export interface ContractRig {
  readonly hardware: SerialStations;
  /** The station's port path. */
  readonly path: string;
  /** Waits (virtual or real time) until `predicate` holds; rejects after `maxMs`. */
  until(predicate: () => boolean, maxMs: number): Promise<void>;
  /** Waits for a driver promise (moving virtual time along if that is the clock). */
  settle<T>(promise: Promise<T>): Promise<T>;
  tearDown(): Promise<void>;
}

export interface ContractTarget {
  /** Set-up of a fresh driver on the station (the driver not yet started). */
  readonly setUp: () => Promise<ContractRig>;
  /** Longest wait for the banner, ms (a real Uno spends ~1.6 s in its bootloader). */
  readonly bannerWaitMs: number;
  /** Per-test timeout, ms (real ports need real time). */
  readonly testTimeoutMs: number;
}

export function describeStationContract(title: string, target: ContractTarget, enabled = true): void {
  describe.skipIf(!enabled)(title, () => {
    let rig: ContractRig;
    let station: SerialStationHealth;

    beforeEach(async () => {
      rig = await target.setUp();
      await rig.hardware.start();
      await rig.until(() => rig.hardware.health().some((h) => h.online), target.bannerWaitMs);
      station = rig.hardware.health().find((h) => h.online) as SerialStationHealth;
    }, target.testTimeoutMs);

    afterEach(async () => {
      await rig.tearDown();
    }, target.testTimeoutMs);

    it('identifies the station by the id in its banner and reports firmware, protocol and port', () => {
      expect(station.station).toMatch(/^[A-Za-z0-9._-]{1,16}$/);
      expect(station).toMatchObject({ online: true, protocol: PROTOCOL_VERSION, port: rig.path });
      expect(station.firmware).toMatch(/^\d+\.\d+\.\d+$/);
      expect(['seat', 'pile']).toContain(station.kind);
      expect(rig.hardware.ports()).toEqual([expect.objectContaining({ path: rig.path, state: 'identified', station: station.station })]);
    }, target.testTimeoutMs);

    it('answers `info` with the facts of its banner', async () => {
      const info = await rig.settle(rig.hardware.info(station.station));
      expect(info).toEqual({
        ok: true, firmware: station.firmware, protocol: PROTOCOL_VERSION, kind: station.kind, station: station.station,
        boot: station.boot,
      });
    }, target.testTimeoutMs);

    it('maps its clock after the ping burst: offset, drift and a finite, small uncertainty', async () => {
      await rig.until(() => rig.hardware.health()[0]?.clock !== undefined, 2000);
      const clock = rig.hardware.health()[0]?.clock;
      expect(Number.isFinite(clock?.offsetUs)).toBe(true);
      expect(Math.abs(clock?.driftPpm ?? Infinity)).toBeLessThan(10_000);
      expect(clock?.uncertaintyUs).toBeLessThan(20_000);
    }, target.testTimeoutMs);

    it('answers a command with a bad checksum `err -` CHECKSUM_MISMATCH, counts it, and keeps answering', async () => {
      const good = frame('7 ping');
      const corrupted = `${good.slice(0, -2)}${good.endsWith('00') ? '01' : '00'}`;
      await expect(rig.settle(rig.hardware.sendLine(station.station, corrupted))).resolves.toMatchObject({ ok: false, code: 'CHECKSUM_MISMATCH' });
      expect(rig.hardware.health()[0]?.errors.commandErrors).toBe(1);
      await expect(rig.settle(rig.hardware.sendLine(station.station, frame('8 zap')))).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_KEYWORD' });
      await expect(rig.settle(rig.hardware.sendLine(station.station, '9 ping'))).resolves.toMatchObject({ ok: false, code: 'CHECKSUM_MISSING' });
      await expect(rig.settle(rig.hardware.info(station.station))).resolves.toMatchObject({ ok: true });
      expect(rig.hardware.health()[0]?.errors).toMatchObject({ commandErrors: 3, timeouts: 0, badLines: 0 });
    }, target.testTimeoutMs);

    it('sets the lamp on a seat (each pattern answered ok); a pile station has none', async () => {
      const patterns = ['on', 'blink-slow', 'blink-fast', 'pulse', 'error', 'off'] as const;
      for (const pattern of patterns) {
        const result = await rig.settle(rig.hardware.setLamp(station.station, pattern));
        expect(result, pattern).toEqual(station.kind === 'seat' ? { ok: true } : expect.objectContaining({ ok: false, code: 'NOT_SUPPORTED' }));
      }
    }, target.testTimeoutMs);

    it('closes the port on stop (safe twice) and leaves it free for the next driver', async () => {
      await rig.hardware.stop();
      await rig.hardware.stop();
      expect(rig.hardware.health()[0]?.online).toBe(false);
      expect(rig.hardware.ports()[0]?.state).toBe('stopped');
      const again = await target.setUp();
      try {
        await again.hardware.start();
        await again.until(() => again.hardware.health().some((h) => h.online), target.bannerWaitMs);
        expect(again.hardware.health()[0]?.station).toBe(station.station);
      } finally {
        await again.tearDown();
      }
    }, target.testTimeoutMs * 2);
  });
}
