/**
 * An SPI register model of the MFRC522 RFID reader (SS = PB2 / D10, RST = PB1 / D9, on the hardware SPI of the
 * ATmega328P) with at most one ISO/IEC 14443A tag in its field. Ported from the host tests' FakeMfrc522
 * (firmware/test/fake_devices.cpp) and made time-aware:
 *
 * - SPI: the first byte of a transaction (SS low) is the address (`1aaaaaa0` read, `0aaaaaa0` write); every
 *   further byte reads that register or writes it (FIFO bursts). SS high ends the transaction. Each byte
 *   completes after the SPI's own transfer time (avr8js `transferCycles`).
 * - Registers: CommandReg (Idle, Transceive, SoftReset), ComIrqReg (Set1 semantics), ErrorReg, FIFODataReg /
 *   FIFOLevelReg (64-byte FIFO, flush), ControlReg (RxLastBits), BitFramingReg (StartSend, TxLastBits),
 *   CollReg, TxControlReg (antenna), TModeReg/TPrescalerReg/TReloadReg (the timeout timer, TAuto),
 *   VersionReg (0x92 = v2.0 by default). Everything else is plain storage. RST low = hard power-down; its
 *   rising edge (and SoftReset) restores the reset values.
 * - Transceive takes the air time of ISO 14443A at 106 kbit/s: the frame goes out (9.44 µs per bit, 9 bits a
 *   byte with parity), the tag answers after the frame delay time (~91 µs), and the answer is received;
 *   then TxIRq/RxIRq are set and the answer sits in the FIFO. Without an answer the timer (started at the end
 *   of transmission when TAuto is set) raises TimerIRq after (2·TPrescaler+1)·(TReload+1)/13.56 MHz.
 * - The tag: the ISO 14443-3 state machine IDLE → READY (REQA/WUPA, answers ATQA) → ACTIVE (anticollision
 *   NVB 0x20 and SELECT NVB 0x70 with CRC_A, per cascade level: 4-, 7- and 10-byte UIDs, cascade tag 0x88,
 *   BCC, SAK with the "UID incomplete" bit) → HALT (HLTA; only WUPA wakes it). The tag is powered only while
 *   the antenna is on.
 *
 * Not modelled: several tags at once (collisions, bit-oriented anticollision frames), parity/CRC errors on
 * the air, the chip's CRC coprocessor and TxCRCEn/RxCRCEn, MIFARE authentication and data blocks, interrupts
 * on the IRQ pin.
 */
import { PinState } from 'avr8js';
import type { AvrRunner, Mcu } from './avr-runner.ts';

const SS = 2; // PB2
const RST = 1; // PB1

const REG = {
  COMMAND: 0x01, COM_IRQ: 0x04, DIV_IRQ: 0x05, ERROR: 0x06, STATUS2: 0x08, FIFO_DATA: 0x09, FIFO_LEVEL: 0x0a,
  CONTROL: 0x0c, BIT_FRAMING: 0x0d, COLL: 0x0e, MODE: 0x11, TX_MODE: 0x12, RX_MODE: 0x13, TX_CONTROL: 0x14,
  TX_ASK: 0x15, T_MODE: 0x2a, T_PRESCALER: 0x2b, T_RELOAD_H: 0x2c, T_RELOAD_L: 0x2d, VERSION: 0x37,
} as const;

const CMD_IDLE = 0x00;
const CMD_TRANSCEIVE = 0x0c;
const CMD_SOFT_RESET = 0x0f;

const IRQ_TX = 0x40;
const IRQ_RX = 0x20;
const IRQ_TIMER = 0x01;

const FC_HZ = 13_560_000;
const ETU_US = 128 / FC_HZ * 1e6; // one bit at 106 kbit/s: 9.44 µs
const FDT_US = 1236 / FC_HZ * 1e6; // frame delay time of a tag's answer: 91 µs
const FIFO_SIZE = 64;

/** ISO/IEC 14443-3 CRC_A (init 0x6363, reflected polynomial 0x8408); returns [low, high]. */
export function crcA(data: readonly number[]): [number, number] {
  let crc = 0x6363;
  for (const byte of data) {
    let ch = (byte ^ (crc & 0xff)) & 0xff;
    ch = (ch ^ (ch << 4)) & 0xff;
    crc = ((crc >> 8) ^ (ch << 8) ^ (ch << 3) ^ (ch >> 4)) & 0xffff;
  }
  return [crc & 0xff, crc >> 8];
}

/** Parses a UID in hex (`04A1B2C3`, 4, 7 or 10 bytes). */
export function parseUid(uid: string): number[] {
  if (!/^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$/.test(uid)) throw new Error(`UID "${uid}" is not 4, 7 or 10 bytes of hex`);
  return [...Buffer.from(uid, 'hex')];
}

type TagState = 'idle' | 'ready' | 'active' | 'halt';

export interface Mfrc522Options {
  /** VersionReg value (0x92 genuine v2.0, 0x91 v1.0, 0x88 a common clone). */
  readonly version?: number;
  /** False: the module is unplugged (MISO pulled low: every read gives 0x00). */
  readonly connected?: boolean;
}

function resetValues(version: number): Uint8Array {
  const regs = new Uint8Array(64);
  regs[REG.COMMAND] = 0x20;
  regs[REG.COM_IRQ] = 0x14;
  regs[REG.DIV_IRQ] = 0x00;
  regs[REG.STATUS2] = 0x00;
  regs[REG.CONTROL] = 0x10;
  regs[REG.COLL] = 0xa0;
  regs[REG.MODE] = 0x3f;
  regs[REG.TX_CONTROL] = 0x80;
  regs[REG.VERSION] = version;
  return regs;
}

export class Mfrc522Model {
  /** Simulated times (µs) of every VersionReg read: the firmware reads it first in each poll. */
  readonly versionReadsUs: number[] = [];
  /** Frames the reader sent into the field (for debugging and assertions). */
  readonly framesSent: { readonly atUs: number; readonly bytes: readonly number[]; readonly bits: number }[] = [];
  /** Completed SELECTs of the last cascade level (full UID reads). */
  selects = 0;
  /** HLTA commands the tag accepted. */
  halts = 0;

  private readonly runner: AvrRunner;
  private readonly version: number;
  private connectedNow: boolean;
  private mcu: Mcu | undefined;
  private regs: Uint8Array;
  private fifo: number[] = [];
  private phase = 0;
  private address = 0;
  private reading = false;
  private ssLow = false;
  private rstLow = false;
  private pending: { cancel(): void }[] = [];
  private uid: number[] | undefined;
  private tagState: TagState = 'idle';
  private cascadeLevel = 1;

  constructor(runner: AvrRunner, options: Mfrc522Options = {}) {
    this.runner = runner;
    this.version = options.version ?? 0x92;
    this.connectedNow = options.connected ?? true;
    this.regs = resetValues(this.version);
    runner.onAttach((mcu) => {
      this.attach(mcu);
    });
  }

  /** Puts a tag with this UID (hex, 4/7/10 bytes) on the reader; it enters the field powered off → IDLE. */
  placeTag(uid: string): void {
    this.uid = parseUid(uid);
    this.tagState = 'idle';
    this.cascadeLevel = 1;
  }

  /** Takes the tag away. */
  removeTag(): void {
    this.uid = undefined;
    this.tagState = 'idle';
  }

  /** The UID in the field (uppercase hex), if any. */
  get tagUid(): string | undefined {
    return this.uid ? Buffer.from(this.uid).toString('hex').toUpperCase() : undefined;
  }

  /** Plugs or unplugs the module. */
  setConnected(connected: boolean): void {
    this.connectedNow = connected;
    if (!connected) this.powerDown();
    else this.regs = resetValues(this.version);
  }

  /** The first VersionReg read at or after `simUs` (the start of the first poll after it). */
  firstPollAfter(simUs: number): number | undefined {
    return this.versionReadsUs.find((t) => t >= simUs);
  }

  private attach(mcu: Mcu): void {
    this.mcu = mcu;
    this.phase = 0;
    this.ssLow = false;
    mcu.spi.onByte = (value) => {
      const answer = this.onSpiByte(value);
      mcu.cpu.addClockEvent(() => {
        mcu.spi.completeTransfer(answer);
      }, mcu.spi.transferCycles);
    };
    mcu.portB.addListener(() => {
      this.onPortB(mcu);
    });
  }

  private onPortB(mcu: Mcu): void {
    if (mcu !== this.mcu) return;
    const ssLow = mcu.portB.pinState(SS) === PinState.Low;
    if (ssLow !== this.ssLow) {
      this.ssLow = ssLow;
      this.phase = 0; // either edge ends/starts a transaction
    }
    const rstLow = mcu.portB.pinState(RST) === PinState.Low;
    if (rstLow !== this.rstLow) {
      this.rstLow = rstLow;
      if (rstLow) this.powerDown();
      else this.regs = resetValues(this.version); // hard reset ends: registers at their reset values
    }
  }

  private powerDown(): void {
    for (const p of this.pending) p.cancel();
    this.pending = [];
    this.fifo = [];
    this.tagState = 'idle'; // the field goes off
  }

  private onSpiByte(out: number): number {
    if (!this.connectedNow) return 0x00;
    if (!this.ssLow || this.rstLow) return 0xff; // not selected: MISO high-impedance (reads as the pull-up)
    if (this.phase === 0) {
      this.address = (out >> 1) & 0x3f;
      this.reading = (out & 0x80) !== 0;
      this.phase = 1;
      return 0x00;
    }
    if (this.reading) return this.readReg(this.address);
    this.writeReg(this.address, out);
    return 0x00;
  }

  private readReg(reg: number): number {
    switch (reg) {
      case REG.VERSION:
        this.versionReadsUs.push(this.runner.nowUs);
        return this.version;
      case REG.FIFO_LEVEL: return this.fifo.length;
      case REG.FIFO_DATA: return this.fifo.shift() ?? 0x00;
      default: return this.regs[reg] ?? 0;
    }
  }

  private writeReg(reg: number, value: number): void {
    switch (reg) {
      case REG.FIFO_DATA:
        if (this.fifo.length < FIFO_SIZE) this.fifo.push(value);
        else this.regs[REG.ERROR] = (this.regs[REG.ERROR] ?? 0) | 0x10; // BufferOvfl
        return;
      case REG.FIFO_LEVEL:
        if (value & 0x80) {
          this.fifo = [];
          this.regs[REG.ERROR] = (this.regs[REG.ERROR] ?? 0) & ~0x10;
        }
        return;
      case REG.COM_IRQ: {
        const irq = this.regs[REG.COM_IRQ] ?? 0;
        this.regs[REG.COM_IRQ] = value & 0x80 ? irq | (value & 0x7f) : irq & ~value & 0x7f;
        return;
      }
      case REG.COMMAND: {
        const cmd = value & 0x0f;
        this.regs[REG.COMMAND] = value;
        if (cmd === CMD_SOFT_RESET) {
          this.powerDown();
          this.regs = resetValues(this.version);
        } else if (cmd === CMD_IDLE) {
          for (const p of this.pending) p.cancel(); // aborts a running transceive
          this.pending = [];
        }
        return;
      }
      case REG.BIT_FRAMING:
        this.regs[REG.BIT_FRAMING] = value & 0x7f;
        if (value & 0x80 && ((this.regs[REG.COMMAND] ?? 0) & 0x0f) === CMD_TRANSCEIVE) this.transmit(value & 0x07);
        return;
      case REG.TX_CONTROL:
        this.regs[REG.TX_CONTROL] = value;
        if ((value & 0x03) === 0) this.tagState = 'idle'; // antenna off: the tag loses power
        return;
      case REG.VERSION: return; // read-only
      default:
        this.regs[reg] = value;
    }
  }

  private get timerPeriodUs(): number {
    const tMode = this.regs[REG.T_MODE] ?? 0;
    const prescaler = ((tMode & 0x0f) << 8) | (this.regs[REG.T_PRESCALER] ?? 0);
    const reload = ((this.regs[REG.T_RELOAD_H] ?? 0) << 8) | (this.regs[REG.T_RELOAD_L] ?? 0);
    return (2 * prescaler + 1) * (reload + 1) / FC_HZ * 1e6;
  }

  private transmit(txLastBits: number): void {
    const frame = this.fifo;
    this.fifo = [];
    const bits = frame.length === 0 ? 0 : (frame.length - 1) * 8 + (txLastBits === 0 ? 8 : txLastBits);
    const now = this.runner.nowUs;
    this.framesSent.push({ atUs: now, bytes: frame, bits });
    const txUs = (2 + bits + Math.floor(bits / 8)) * ETU_US; // SOF + data with parity + EOF
    const antennaOn = ((this.regs[REG.TX_CONTROL] ?? 0) & 0x03) !== 0;
    const answer = antennaOn ? this.tagRespond(frame, txLastBits) : null;
    this.regs[REG.ERROR] = 0;
    this.regs[REG.CONTROL] = ((this.regs[REG.CONTROL] ?? 0) & ~0x07) & 0xff;
    this.pending.push(this.runner.after(txUs, () => {
      this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_TX;
    }));
    const tAuto = ((this.regs[REG.T_MODE] ?? 0) & 0x80) !== 0;
    const timeoutUs = tAuto ? this.timerPeriodUs : Infinity;
    if (answer && FDT_US < timeoutUs) {
      const rxUs = (2 + answer.length * 9) * ETU_US;
      this.pending.push(this.runner.after(txUs + FDT_US + rxUs, () => {
        this.fifo = [...answer];
        this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_RX;
      }));
    } else if (tAuto) {
      this.pending.push(this.runner.after(txUs + timeoutUs, () => {
        this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_TIMER;
      }));
    }
  }

  /** The cascade level's 5 bytes (4 UID or cascade-tag bytes + BCC). */
  private cascadeBytes(level: number): number[] | undefined {
    const uid = this.uid;
    if (!uid) return undefined;
    if (level > this.levels) return undefined;
    const from = (level - 1) * 3;
    const cl = level < this.levels ? [0x88, ...uid.slice(from, from + 3)] : uid.slice(from, from + 4);
    const [a = 0, b = 0, c = 0, d = 0] = cl;
    return [...cl, a ^ b ^ c ^ d];
  }

  /** Cascade levels of the UID in the field: 4 bytes → 1, 7 → 2, 10 → 3. */
  private get levels(): number {
    return this.uid ? (this.uid.length - 1) / 3 : 0;
  }

  private tagRespond(f: readonly number[], txLastBits: number): number[] | null {
    const uid = this.uid;
    if (!uid || f.length === 0) return null;
    const [cmd = 0] = f;
    if (txLastBits === 7 && f.length === 1) { // short frame: REQA / WUPA
      const wakes = cmd === 0x52 ? this.tagState !== 'active' : cmd === 0x26 && this.tagState === 'idle';
      if (!wakes) return this.toIdle();
      this.tagState = 'ready';
      this.cascadeLevel = 1;
      return [uid.length === 4 ? 0x04 : uid.length === 7 ? 0x44 : 0x84, 0x00];
    }
    if (txLastBits !== 0) return this.toIdle();
    if (cmd === 0x50 && f.length === 4 && f[1] === 0x00 && this.tagState === 'active') {
      const [lo, hi] = crcA(f.slice(0, 2));
      if (f[2] !== lo || f[3] !== hi) return this.toIdle();
      this.tagState = 'halt';
      this.halts++;
      return null; // a halted tag never answers HLTA
    }
    const level = cmd === 0x93 ? 1 : cmd === 0x95 ? 2 : cmd === 0x97 ? 3 : 0;
    if (level === 0 || this.tagState !== 'ready' || level !== this.cascadeLevel) return this.toIdle();
    const cl = this.cascadeBytes(level);
    if (!cl) return this.toIdle();
    if (f.length === 2 && f[1] === 0x20) return cl; // ANTICOLLISION: the whole cascade level
    if (f.length === 9 && f[1] === 0x70) { // SELECT
      const [lo, hi] = crcA(f.slice(0, 7));
      if (f[7] !== lo || f[8] !== hi) return this.toIdle();
      if (cl.some((byte, i) => f[2 + i] !== byte)) return this.toIdle();
      const complete = level === this.levels;
      const sak = complete ? 0x08 : 0x04;
      if (complete) {
        this.tagState = 'active';
        this.selects++;
      } else {
        this.cascadeLevel++;
      }
      return [sak, ...crcA([sak])];
    }
    return this.toIdle(); // partial anticollision frames only follow a collision: not modelled
  }

  /** An unexpected frame: the tag falls back to IDLE (or stays halted) and does not answer. */
  private toIdle(): null {
    if (this.tagState !== 'halt') this.tagState = 'idle';
    return null;
  }
}
