/**
 * An SPI register model of the MFRC522 RFID reader (SS = PB2 / D10, RST = PB1 / D9, on the hardware SPI of the
 * ATmega328P) with any number of ISO/IEC 14443A tags in its field, answering with real anticollision. Ported
 * from the host tests' FakeMfrc522 (firmware/test/fake_devices.cpp) and made time-aware:
 *
 * - SPI: the first byte of a transaction (SS low) is the address (`1aaaaaa0` read, `0aaaaaa0` write); every
 *   further byte reads that register or writes it (FIFO bursts). SS high ends the transaction. Each byte
 *   completes after the SPI's own transfer time (avr8js `transferCycles`).
 * - Registers: CommandReg (Idle, Transceive, SoftReset), ComIrqReg (Set1 semantics), ErrorReg (CollErr,
 *   ParityErr, BufferOvfl), FIFODataReg / FIFOLevelReg (64-byte FIFO, flush), ControlReg (RxLastBits),
 *   BitFramingReg (StartSend, RxAlign, TxLastBits), CollReg (ValuesAfterColl, CollPosNotValid, CollPos),
 *   TxControlReg (antenna), TModeReg/TPrescalerReg/TReloadReg (the timeout timer, TAuto), VersionReg (0x92 =
 *   v2.0 by default). Everything else is plain storage. RST low = hard power-down; its rising edge (and
 *   SoftReset) restores the reset values (antenna off).
 * - Transceive takes the air time of ISO 14443A at 106 kbit/s: the frame goes out (9.44 µs per bit, a parity
 *   bit per byte), the tags answer after the frame delay time (~91 µs), and the answer is received; then
 *   TxIRq/RxIRq are set and the answer sits in the FIFO.
 * - The timer is a unit of its own, as the datasheet has it (§8.5: "the timer is triggered by events but does
 *   not influence any event"; Table 106, TModeReg): a start event — the end of a transmission when TAuto is
 *   set, or ControlReg.TStartNow — (re)loads it from TReload and it counts down at 13.56 MHz /
 *   (2·TPrescaler+1); it stops at the 5th bit of a reception (TAuto, RxMultiple off), at ControlReg.TStopNow
 *   (no TimerIRq then), or at zero, where it sets TimerIRq (and with TAutoRestart reloads and goes on).
 *   Commands do not touch it: Idle, a new Transceive or flushing the FIFO leave a running timer running, so
 *   a timer started by a frame that got no answer (an HLTA) fires later, in the middle of whatever the
 *   driver does next, unless the driver stops it. Status1Reg.TRunning and TCounterValReg show its state.
 * - Several tags answer bit-synchronously: their answers are superposed bit by bit. Where they differ the
 *   reader sees a collision: CollErr (and ParityErr, the worst case for the collided byte), CollReg.CollPos =
 *   the 1-based position of the first collided bit counted from bit 0 of the first FIFO byte (RxAlign bits
 *   included; 0 means 32; CollPosNotValid beyond 32), and with ValuesAfterColl = 0 the collided bit and
 *   everything after it read as 0 (with 1: the bitwise OR).
 * - Each tag follows the ISO 14443-3 state machine: IDLE → READY (REQA or WUPA; answers ATQA; WUPA also wakes
 *   HALT, into READY*), anticollision within READY (a frame with NVB < 0x70 gets the rest of the cascade level
 *   from every tag whose UID CLn starts with the bits sent; the others stay silent), SELECT (NVB 0x70, CRC_A)
 *   → the next cascade level or ACTIVE (4-, 7-, 10-byte UIDs, cascade tag 0x88, BCC, SAK with the "UID
 *   incomplete" bit), HLTA in ACTIVE → HALT. Any other frame sends a READY/ACTIVE tag back to IDLE (READY* /
 *   ACTIVE*: back to HALT) without an answer — including REQA/WUPA, an HLTA meant for another tag, a SELECT
 *   with another tag's UID, a command of another cascade level, and an invalid frame (a SELECT with a bad
 *   CRC_A). Only an ANTICOLLISION whose UID bits are not this tag's prefix leaves it READY, silent (the
 *   bit-frame anticollision needs the losers to stay). HALT and IDLE tags ignore everything but WUPA
 *   (HALT, IDLE) and REQA (IDLE).
 * - Power: a tag is powered only while the antenna is on; switching the field off resets every tag to IDLE
 *   (ISO field reset), and a tag answers only `powerUpUs` after it got field: placed on a reader whose field
 *   is on, or when the field comes on. ISO/IEC 14443-3 (§5, polling) allows a PICC up to 5 ms of
 *   unmodulated field before it must accept a REQA/WUPA, and says a PCD may poll sooner because PICCs may
 *   answer sooner; NXP's NTAG21x and MIFARE datasheets give no shorter guaranteed figure. So the default is
 *   the 5 ms ISO bound, and a test can set it per reader (`powerUpUs`) or per tag (`placeTag(uid, { powerUpUs })`).
 *
 * Real radio and real parts, as options (issue 17; all off by default):
 * - **Answer loss** (`answerLoss`, `setAnswerLoss()`, seeded by `lossSeed`): each tag's answer to a frame is
 *   lost on the way to the reader with this probability (noise, a hand over the pad). The tag changed state
 *   as if it had been heard — it answered. 0.001, 0.01, or 0.1 for a burst (`setAnswerLoss()` at a moment).
 * - **Tags that stay READY after a SELECT for another UID** (`staysReady`, per reader or per tag): ISO says a
 *   READY tag that gets a SELECT with another UID falls back to IDLE (READY*: to HALT); some stay READY and
 *   silent, like the ChameleonMini tag emulator (its READY state only leaves on HLTA/REQA/WUPA).
 * - **A reader that reads 0x00 on SPI for a while after a reset** (`spiZeroAfterResetUs`): every read gives
 *   0x00 (PowerDown included) and writes are lost, after a hard reset, a SoftReset or a re-plug.
 * - **Unreadable tags** (`unreadable`, per tag): they answer REQA/WUPA, but every longer answer (anticollision,
 *   SAK) arrives with a parity error (a damaged antenna, a tag at the edge of the field): no read succeeds.
 *
 * Not modelled: bit errors on the air other than the above, the chip's CRC coprocessor and TxCRCEn/RxCRCEn,
 * MIFARE authentication and data blocks, interrupts on the IRQ pin, the detuning of stacked tags (every tag
 * in the field answers, however many there are).
 */
import { PinState } from 'avr8js';
import type { AvrRunner, Mcu } from './avr-runner.ts';
import { randomSource } from '../../controller/kernel/random.ts';

const SS = 2; // PB2
const RST = 1; // PB1

const REG = {
  COMMAND: 0x01, COM_IRQ: 0x04, DIV_IRQ: 0x05, ERROR: 0x06, STATUS1: 0x07, STATUS2: 0x08, FIFO_DATA: 0x09,
  FIFO_LEVEL: 0x0a, CONTROL: 0x0c, BIT_FRAMING: 0x0d, COLL: 0x0e, MODE: 0x11, TX_MODE: 0x12, RX_MODE: 0x13,
  TX_CONTROL: 0x14, TX_ASK: 0x15, T_MODE: 0x2a, T_PRESCALER: 0x2b, T_RELOAD_H: 0x2c, T_RELOAD_L: 0x2d,
  T_COUNTER_H: 0x2e, T_COUNTER_L: 0x2f, VERSION: 0x37,
} as const;

/** CommandReg.PowerDown: read as 1 while the chip wakes up after a reset (oscillator start-up). */
const POWER_DOWN = 0x10;
/** ControlReg: TStopNow / TStartNow (write 1), RxLastBits (read). */
const T_STOP_NOW = 0x80;
const T_START_NOW = 0x40;
/** TModeReg bits. */
const T_AUTO = 0x80;
const T_AUTO_RESTART = 0x10;
/** Status1Reg.TRunning. */
const T_RUNNING = 0x08;
/** RxModeReg.RxMultiple: the receiver stays on after a frame (and TAuto's timer never stops). */
const RX_MULTIPLE = 0x04;

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

/** What the reader's FIFO and registers hold after a reception. */
interface Received {
  readonly bytes: number[];
  readonly lastBits: number;
  readonly error: number;
  readonly coll?: number;
}

/** One tag in the field. */
interface Tag {
  readonly uid: readonly number[];
  state: TagState;
  /** READY* / ACTIVE*: woken from HALT by WUPA (an unexpected frame sends it back to HALT). */
  fromHalt: boolean;
  /** The cascade level being selected (1-3). */
  level: number;
  /** Simulated time from which it answers (field on, or placed in a field that is on, + power-up). */
  readyAtUs: number;
  /** Its power-up time (µs). */
  readonly powerUpUs: number;
  /** Stays READY (silent) after a SELECT for another UID instead of falling back (ChameleonMini). */
  readonly staysReady: boolean;
  /** Every answer but the ATQA arrives with a parity error. */
  readonly unreadable: boolean;
}

/** Bits LSB first within each byte, as ISO 14443A transmits them. */
function toBits(bytes: readonly number[], count = bytes.length * 8): number[] {
  const bits: number[] = [];
  for (let i = 0; i < count; i++) bits.push(((bytes[Math.floor(i / 8)] ?? 0) >> (i % 8)) & 1);
  return bits;
}

/** A tag's 40 bits of cascade level `level` (CLn: cascade tag 0x88 or UID bytes, then BCC). */
function cascadeBytes(uid: readonly number[], level: number): number[] {
  const levels = (uid.length - 1) / 3;
  const from = (level - 1) * 3;
  const cl = level < levels ? [0x88, ...uid.slice(from, from + 3)] : uid.slice(from, from + 4);
  const [a = 0, b = 0, c = 0, d = 0] = cl;
  return [...cl, a ^ b ^ c ^ d];
}

export interface Mfrc522Options {
  /** VersionReg value (0x92 genuine v2.0, 0x91 v1.0, 0x88 a common clone). */
  readonly version?: number;
  /** False: the module is unplugged (MISO pulled low: every read gives 0x00). */
  readonly connected?: boolean;
  /** Time a tag needs in the field before it answers (µs; ISO 14443-3 allows up to 5 ms). Default 5000. */
  readonly powerUpUs?: number;
  /**
   * How long CommandReg.PowerDown reads 1 after a hard reset (RST high) or a SoftReset: the oscillator
   * start-up (datasheet §8.8.2: the crystal's start-up time + 37.74 µs). Default 500 µs; SPI register
   * writes before that are lost.
   */
  readonly startUpUs?: number;
  /** Probability that a tag's answer is lost on the air (0-1; default 0). `setAnswerLoss()` changes it later. */
  readonly answerLoss?: number;
  /** Seed of the loss draws (default 1): runs are replayable. */
  readonly lossSeed?: number;
  /** Every tag stays READY after a SELECT for another UID (default false: ISO, back to IDLE / HALT). */
  readonly staysReady?: boolean;
  /** For this long after every reset, SPI reads give 0x00 and writes are lost (µs; default 0). */
  readonly spiZeroAfterResetUs?: number;
  /**
   * False: keep no per-frame logs (`transactions`, `framesSent`, `requests` and so `polls()`/`checks()`/`steps()`,
   * `versionReadsUs`, `timerExpiries`) — for long runs: 10 simulated minutes of them outgrow Node's heap. Default true.
   */
  readonly record?: boolean;
}

/** Per tag. */
export interface PlaceTagOptions {
  /** This tag's power-up time (µs), instead of the reader's `powerUpUs`. */
  readonly powerUpUs?: number;
  /** This tag stays READY after a SELECT for another UID (default: the reader's `staysReady`). */
  readonly staysReady?: boolean;
  /** This tag cannot be read: its answers after the ATQA arrive with a parity error. */
  readonly unreadable?: boolean;
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
  /** Simulated times (µs) of every VersionReg read (the firmware reads it at the start of each inventory step). */
  readonly versionReadsUs: number[] = [];
  /** Frames the reader sent into the field (for debugging and assertions). */
  readonly framesSent: { readonly atUs: number; readonly bytes: readonly number[]; readonly bits: number }[] = [];
  /** REQA/WUPA frames: when they went out (StartSend), which one, and how many tags answered. */
  readonly requests: { readonly atUs: number; readonly answers: number; readonly wupa: boolean }[] = [];
  /** Antenna switched on / off, with the simulated time. */
  readonly fieldEdges: { readonly atUs: number; readonly on: boolean }[] = [];
  /** Every SPI transaction: when its address byte came and which register it addressed. */
  readonly transactions: { readonly atUs: number; readonly reg: number; readonly read: boolean }[] = [];
  /** Completed SELECTs of the last cascade level (full UID reads). */
  selects = 0;
  /** HLTA commands a tag accepted. */
  halts = 0;
  /** Answers in which two tags' bits collided. */
  collisions = 0;
  /** Times the timer reached zero and set TimerIRq, with the simulated time. */
  readonly timerExpiries: number[] = [];
  /**
   * Stale TimerIRqs: set by a timer that was started before the driver last cleared TimerIRq (ComIrqReg) —
   * left running by an earlier frame, it fires during the next one.
   */
  staleTimerIrqs = 0;
  /** Tag answers lost on the air (answer loss). */
  lostAnswers = 0;
  /** Listeners told of every REQA/WUPA as it goes out (tests that act at a moment of a presence check). */
  readonly onRequest = new Set<(request: { readonly atUs: number; readonly wupa: boolean; readonly answers: number }) => void>();

  private readonly runner: AvrRunner;
  private readonly version: number;
  private readonly powerUpUs: number;
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
  private readonly tags: Tag[] = [];
  private readonly startUpUs: number;
  private answerLoss: number;
  private readonly lossRandom: () => number;
  private readonly staysReady: boolean;
  private readonly spiZeroAfterResetUs: number;
  private readonly record: boolean;
  /** Until when SPI reads give 0x00 after a reset. */
  private spiZeroUntilUs = 0;
  /** Until when CommandReg.PowerDown reads 1 (the oscillator starting after a reset). */
  private wakingUntilUs = 0;
  /** The timer: running since `timerStartUs` with `timerPeriodUs`, its zero crossing scheduled. */
  private timer: { startUs: number; periodUs: number; tickUs: number; expiry: { cancel(): void } } | undefined;
  /** A transmission is on its way and its end (the TAuto start) has not come yet. */
  private transmitting = false;

  constructor(runner: AvrRunner, options: Mfrc522Options = {}) {
    this.runner = runner;
    this.version = options.version ?? 0x92;
    this.powerUpUs = options.powerUpUs ?? 5000;
    this.startUpUs = options.startUpUs ?? 500;
    this.connectedNow = options.connected ?? true;
    this.answerLoss = options.answerLoss ?? 0;
    this.lossRandom = randomSource(options.lossSeed ?? 1);
    this.staysReady = options.staysReady ?? false;
    this.spiZeroAfterResetUs = options.spiZeroAfterResetUs ?? 0;
    this.record = options.record ?? true;
    this.regs = resetValues(this.version);
    runner.onAttach((mcu) => {
      this.attach(mcu);
    });
  }

  /** Lays a tag with this UID (hex, 4/7/10 bytes) on the reader, with the others; it answers once powered up. */
  placeTag(uid: string, options: PlaceTagOptions = {}): void {
    const bytes = parseUid(uid);
    if (this.tags.some((t) => sameUid(t.uid, bytes))) throw new Error(`tag ${uid} is on the reader already`);
    const powerUpUs = options.powerUpUs ?? this.powerUpUs;
    const readyAtUs = this.fieldOn ? this.runner.nowUs + powerUpUs : Infinity;
    this.tags.push({
      uid: bytes, state: 'idle', fromHalt: false, level: 1, readyAtUs, powerUpUs,
      staysReady: options.staysReady ?? this.staysReady, unreadable: options.unreadable ?? false,
    });
  }

  /** From now on each tag answer is lost with probability `loss` (a burst: set it back later). */
  setAnswerLoss(loss: number): void {
    if (!(loss >= 0 && loss <= 1)) throw new Error(`answer loss ${loss} is not a probability`);
    this.answerLoss = loss;
  }

  /** The simulated time from which the tag with this UID answers (Infinity: no field), or undefined. */
  tagReadyAtUs(uid: string): number | undefined {
    const bytes = parseUid(uid);
    return this.tags.find((t) => sameUid(t.uid, bytes))?.readyAtUs;
  }

  /** The ISO 14443-3 state of the tag with this UID (for assertions), or undefined when it is not on the reader. */
  tagState(uid: string): string | undefined {
    const bytes = parseUid(uid);
    const tag = this.tags.find((t) => sameUid(t.uid, bytes));
    if (!tag) return undefined;
    return tag.fromHalt && (tag.state === 'ready' || tag.state === 'active') ? `${tag.state}*` : tag.state;
  }

  /** True while the timer counts. */
  get timerRunning(): boolean {
    return this.timer !== undefined;
  }

  /** Takes the tag with this UID away (all tags when no UID is given). */
  removeTag(uid?: string): void {
    if (uid === undefined) {
      this.tags.length = 0;
      return;
    }
    const bytes = parseUid(uid);
    const index = this.tags.findIndex((t) => sameUid(t.uid, bytes));
    if (index < 0) throw new Error(`tag ${uid} is not on the reader`);
    this.tags.splice(index, 1);
  }

  /** The UIDs in the field (uppercase hex), in the order they were placed. */
  get tagUids(): string[] {
    return this.tags.map((t) => Buffer.from(t.uid).toString('hex').toUpperCase());
  }

  /** The first UID in the field (uppercase hex), if any. */
  get tagUid(): string | undefined {
    return this.tagUids[0];
  }

  /** True while the antenna drives the field. */
  get fieldOn(): boolean {
    return ((this.regs[REG.TX_CONTROL] ?? 0) & 0x03) !== 0;
  }

  /** Plugs or unplugs the module. */
  setConnected(connected: boolean): void {
    this.connectedNow = connected;
    if (!connected) this.powerDown();
    else this.resetChip(); // powered again: reset values, the oscillator starts
  }

  /** The polls (REQA) since `fromUs`: when each went out and how many tags answered it. */
  polls(fromUs = 0): { readonly atUs: number; readonly answers: number }[] {
    return this.requests.filter((r) => !r.wupa && r.atUs >= fromUs);
  }

  /** The presence checks (each begins with a WUPA) since `fromUs`. */
  checks(fromUs = 0): { readonly atUs: number; readonly answers: number }[] {
    return this.requests.filter((r) => r.wupa && r.atUs >= fromUs);
  }

  /**
   * The RFID steps since `fromUs`, as the firmware runs them (one per loop pass): each begins with a poll
   * (REQA) and lasts until the last SPI transaction before the next poll (the read of a new tag, or a
   * presence check: the loop is blocked meanwhile), with the number of tags that answered its REQA.
   */
  steps(fromUs = 0): { readonly startUs: number; readonly endUs: number; readonly answers: number }[] {
    const polls = this.polls(fromUs);
    return polls.map((poll, i) => {
      const next = polls[i + 1]?.atUs ?? Infinity;
      // The poll's own set-up (a few register writes) came just before its StartSend.
      const first = this.transactions.filter((t) => t.atUs <= poll.atUs && t.atUs > poll.atUs - 100).at(0)?.atUs ?? poll.atUs;
      const endUs = this.transactions.filter((t) => t.atUs >= poll.atUs && t.atUs < next - 100).at(-1)?.atUs ?? poll.atUs;
      return { startUs: first, endUs, answers: poll.answers };
    });
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
      else this.resetChip(); // hard reset ends: registers at their reset values, the oscillator starts
    }
  }

  private powerDown(): void {
    for (const p of this.pending) p.cancel();
    this.pending = [];
    this.transmitting = false;
    this.stopTimer();
    this.fifo = [];
    this.setField(false);
  }

  /** Reset values, and the oscillator's start-up: CommandReg.PowerDown reads 1 and writes are lost meanwhile. */
  private resetChip(): void {
    this.regs = resetValues(this.version);
    this.wakingUntilUs = this.runner.nowUs + this.startUpUs;
    this.spiZeroUntilUs = this.runner.nowUs + this.spiZeroAfterResetUs;
  }

  private get waking(): boolean {
    return this.runner.nowUs < this.wakingUntilUs;
  }

  // ------------------------------------------------------------------------------------------- timer

  private get timerTickUs(): number {
    const prescaler = (((this.regs[REG.T_MODE] ?? 0) & 0x0f) << 8) | (this.regs[REG.T_PRESCALER] ?? 0);
    return (2 * prescaler + 1) / FC_HZ * 1e6;
  }

  private get timerReload(): number {
    return ((this.regs[REG.T_RELOAD_H] ?? 0) << 8) | (this.regs[REG.T_RELOAD_L] ?? 0);
  }

  /** A start event: (re)load from TReload and count down (every start event re-triggers the timer). */
  private startTimer(): void {
    this.stopTimer();
    const tickUs = this.timerTickUs;
    const periodUs = (this.timerReload + 1) * tickUs;
    const startUs = this.runner.nowUs;
    const expiry = this.runner.after(periodUs, () => {
      this.timer = undefined;
      if (this.record) this.timerExpiries.push(this.runner.nowUs);
      if (startUs < this.timerIrqClearedUs) this.staleTimerIrqs++; // started before the driver cleared TimerIRq
      this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_TIMER;
      if ((this.regs[REG.T_MODE] ?? 0) & T_AUTO_RESTART) this.startTimer();
    });
    this.timer = { startUs, periodUs, tickUs, expiry };
  }

  private stopTimer(): void {
    this.timer?.expiry.cancel();
    this.timer = undefined;
  }

  /** TCounterValReg: the ticks left (the reload value when stopped, as after a reset). */
  private get timerCounter(): number {
    const t = this.timer;
    if (!t) return this.timerReload;
    return Math.max(0, Math.ceil((t.startUs + t.periodUs - this.runner.nowUs) / t.tickUs) - 1);
  }

  /** The driver waits for the answer to the frame last sent (its own timer start has happened). */
  private awaitingAnswer = false;
  /** When the driver last cleared TimerIRq. */
  private timerIrqClearedUs = -Infinity;

  /** The field goes on or off: tags lose power (IDLE) or start powering up. */
  private setField(on: boolean): void {
    const was = this.fieldEdges.at(-1)?.on ?? false;
    if (on === was) return;
    this.fieldEdges.push({ atUs: this.runner.nowUs, on });
    for (const tag of this.tags) {
      tag.state = 'idle';
      tag.fromHalt = false;
      tag.readyAtUs = on ? this.runner.nowUs + tag.powerUpUs : Infinity;
    }
  }

  private onSpiByte(out: number): number {
    if (!this.connectedNow) return 0x00;
    if (!this.ssLow || this.rstLow) return 0xff; // not selected: MISO high-impedance (reads as the pull-up)
    if (this.runner.nowUs < this.spiZeroUntilUs) return 0x00; // just reset: reads 0x00, writes lost
    if (this.phase === 0) {
      this.address = (out >> 1) & 0x3f;
      this.reading = (out & 0x80) !== 0;
      this.phase = 1;
      if (this.record) this.transactions.push({ atUs: this.runner.nowUs, reg: this.address, read: this.reading });
      return 0x00;
    }
    if (this.reading) return this.readReg(this.address);
    this.writeReg(this.address, out);
    return 0x00;
  }

  private readReg(reg: number): number {
    switch (reg) {
      case REG.VERSION:
        if (this.record) this.versionReadsUs.push(this.runner.nowUs);
        return this.version;
      case REG.COMMAND: return (this.regs[REG.COMMAND] ?? 0) | (this.waking ? POWER_DOWN : 0);
      case REG.FIFO_LEVEL: return this.fifo.length;
      case REG.FIFO_DATA: return this.fifo.shift() ?? 0x00;
      case REG.STATUS1: return ((this.regs[REG.STATUS1] ?? 0) & ~T_RUNNING) | (this.timer ? T_RUNNING : 0);
      case REG.T_COUNTER_H: return (this.timerCounter >> 8) & 0xff;
      case REG.T_COUNTER_L: return this.timerCounter & 0xff;
      default: return this.regs[reg] ?? 0;
    }
  }

  private writeReg(reg: number, value: number): void {
    if (this.waking) return; // the oscillator is still starting: the digital part does not run yet
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
        if (!(value & 0x80) && value & IRQ_TIMER) this.timerIrqClearedUs = this.runner.nowUs;
        return;
      }
      case REG.COMMAND: {
        const cmd = value & 0x0f;
        this.regs[REG.COMMAND] = value;
        if (cmd === CMD_SOFT_RESET) {
          this.powerDown();
          this.resetChip();
        } else if (cmd === CMD_IDLE) {
          // Aborts a running transceive (transmission, reception) — but not the timer, which commands
          // never touch (§8.5).
          for (const p of this.pending) p.cancel();
          this.pending = [];
          this.transmitting = false;
          this.awaitingAnswer = false;
        }
        return;
      }
      case REG.CONTROL:
        if (value & T_STOP_NOW) this.stopTimer(); // stopped by the host: no TimerIRq
        if (value & T_START_NOW) this.startTimer();
        return; // RxLastBits is read-only
      case REG.T_COUNTER_H:
      case REG.T_COUNTER_L:
      case REG.STATUS1:
        return; // read-only
      case REG.BIT_FRAMING:
        this.regs[REG.BIT_FRAMING] = value & 0x7f;
        if (value & 0x80 && ((this.regs[REG.COMMAND] ?? 0) & 0x0f) === CMD_TRANSCEIVE) {
          this.transmit(value & 0x07, (value >> 4) & 0x07); // TxLastBits, RxAlign
        }
        return;
      case REG.COLL: // only ValuesAfterColl is writable
        this.regs[REG.COLL] = ((this.regs[REG.COLL] ?? 0) & 0x7f) | (value & 0x80);
        return;
      case REG.TX_CONTROL:
        this.regs[REG.TX_CONTROL] = value;
        this.setField((value & 0x03) !== 0);
        return;
      case REG.VERSION: return; // read-only
      default:
        this.regs[reg] = value;
    }
  }

  private transmit(txLastBits: number, rxAlign: number): void {
    const frame = this.fifo;
    this.fifo = [];
    const bits = frame.length === 0 ? 0 : (frame.length - 1) * 8 + (txLastBits === 0 ? 8 : txLastBits);
    const now = this.runner.nowUs;
    if (this.record) this.framesSent.push({ atUs: now, bytes: frame, bits });
    const txUs = (2 + bits + Math.floor(bits / 8)) * ETU_US; // SOF + data with parity + EOF
    const answers: number[][] = [];
    const wupa = ((frame[0] ?? 0) & 0x7f) === 0x52;
    let garbled = false;
    if (this.fieldOn) {
      for (const tag of this.tags) {
        if (now < tag.readyAtUs) continue; // still powering up: deaf
        const answer = this.tagRespond(tag, frame, bits);
        if (!answer) continue;
        if (this.answerLoss > 0 && this.lossRandom() < this.answerLoss) {
          this.lostAnswers++; // it answered (its state moved on), the reader hears nothing of it
          continue;
        }
        if (tag.unreadable && bits !== 7) garbled = true;
        answers.push(answer);
      }
    }
    for (const listener of this.onRequest) {
      if (bits === 7) listener({ atUs: now, wupa, answers: answers.length });
    }
    if (bits === 7 && this.record) this.requests.push({ atUs: now, answers: answers.length, wupa });
    this.regs[REG.ERROR] = 0;
    this.regs[REG.CONTROL] = ((this.regs[REG.CONTROL] ?? 0) & ~0x07) & 0xff;
    this.transmitting = true;
    this.awaitingAnswer = false;
    const tAuto = ((this.regs[REG.T_MODE] ?? 0) & T_AUTO) !== 0;
    const rxMultiple = ((this.regs[REG.RX_MODE] ?? 0) & RX_MULTIPLE) !== 0;
    // End of transmission: TxIRq, and with TAuto the timer (re)starts from TReload.
    this.pending.push(this.runner.after(txUs, () => {
      this.transmitting = false;
      this.awaitingAnswer = true;
      this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_TX;
      if (tAuto) this.startTimer();
    }));
    if (answers.length === 0) return; // nothing comes back: only the timer (if any) ends the wait
    const received = this.superpose(answers, rxAlign);
    const length = Math.max(...answers.map((a) => a.length));
    const rxUs = (2 + length + Math.ceil(length / 8)) * ETU_US;
    // The answer's 5th bit (start bit + 4 data bits) stops a TAuto timer; the timer never stops a reception.
    if (tAuto && !rxMultiple) {
      this.pending.push(this.runner.after(txUs + FDT_US + 5 * ETU_US, () => {
        this.stopTimer();
      }));
    }
    this.pending.push(this.runner.after(txUs + FDT_US + rxUs, () => {
      this.awaitingAnswer = false;
      this.fifo = received.bytes;
      this.regs[REG.ERROR] = received.error | (garbled ? 0x02 : 0); // an unreadable tag: ParityErr
      if (received.coll !== undefined) this.regs[REG.COLL] = ((this.regs[REG.COLL] ?? 0) & 0x80) | received.coll;
      this.regs[REG.CONTROL] = ((this.regs[REG.CONTROL] ?? 0) & ~0x07 & 0xff) | received.lastBits;
      this.regs[REG.COM_IRQ] = (this.regs[REG.COM_IRQ] ?? 0) | IRQ_RX;
    }));
  }

  /** What the reader receives when these answers (bits) arrive at once, stored from bit `rxAlign` of byte 0. */
  private superpose(answers: readonly number[][], rxAlign: number): Received {
    const length = Math.max(...answers.map((a) => a.length));
    const got: number[] = [];
    let collision = -1;
    for (let i = 0; i < length; i++) {
      const values = answers.map((a) => a[i]).filter((v) => v !== undefined);
      const ones = values.filter((v) => v === 1).length;
      if (ones > 0 && ones < values.length && collision < 0) collision = i;
      got.push(ones > 0 ? 1 : 0);
    }
    let error = 0;
    let coll: number | undefined;
    if (collision >= 0) {
      this.collisions++;
      error = 0x08 | 0x02; // CollErr; the collided byte's parity fails as well (the worst case for a driver)
      const position = rxAlign + collision + 1;
      coll = position > 32 ? 0x20 : position & 0x1f;
      if (((this.regs[REG.COLL] ?? 0) & 0x80) === 0) got.fill(0, collision); // ValuesAfterColl = 0
    }
    const total = rxAlign + length;
    const bytes = new Array<number>(Math.ceil(total / 8)).fill(0);
    got.forEach((bit, i) => {
      const at = rxAlign + i;
      bytes[Math.floor(at / 8)] = (bytes[Math.floor(at / 8)] ?? 0) | (bit << (at % 8));
    });
    return { bytes, lastBits: total % 8, error, ...(coll === undefined ? {} : { coll }) };
  }

  /** One tag's answer (bits) to a frame of `bits` bits, or null; moves the tag through its states. */
  private tagRespond(tag: Tag, f: readonly number[], bits: number): number[] | null {
    if (f.length === 0) return null;
    const [cmd = 0] = f;
    if (bits === 7) { // short frame: REQA / WUPA
      const wupa = (cmd & 0x7f) === 0x52;
      if ((cmd & 0x7f) !== 0x26 && !wupa) return null;
      if (tag.state === 'idle' || (wupa && tag.state === 'halt')) {
        tag.fromHalt = tag.state === 'halt';
        tag.state = 'ready';
        tag.level = 1;
        return toBits([tag.uid.length === 4 ? 0x04 : tag.uid.length === 7 ? 0x44 : 0x84, 0x00]);
      }
      return this.toIdle(tag); // REQA/WUPA in READY/ACTIVE is "another command"
    }
    if (tag.state === 'idle' || tag.state === 'halt') return null; // only REQA/WUPA reach them
    if (bits === 32 && cmd === 0x50 && f[1] === 0x00) { // HLTA
      const [lo, hi] = crcA(f.slice(0, 2));
      if (tag.state === 'active' && f[2] === lo && f[3] === hi) {
        tag.state = 'halt';
        this.halts++;
        return null; // a halted tag never answers HLTA
      }
      return this.toIdle(tag); // meant for the selected tag: this one falls back
    }
    const level = cmd === 0x93 ? 1 : cmd === 0x95 ? 2 : cmd === 0x97 ? 3 : 0;
    if (level === 0 || tag.state !== 'ready' || bits < 16) return this.toIdle(tag);
    if (level !== tag.level) return this.toIdle(tag); // another cascade level: an unexpected command
    const nvb = f[1] ?? 0;
    const cl = cascadeBytes(tag.uid, level);
    if (nvb === 0x70) { // SELECT
      if (bits !== 72) return this.toIdle(tag);
      const [lo, hi] = crcA(f.slice(0, 7));
      if (f[7] !== lo || f[8] !== hi) return this.toIdle(tag); // an invalid frame
      if (cl.some((byte, i) => f[2 + i] !== byte)) { // another tag's UID: not selected
        return tag.staysReady ? null : this.toIdle(tag); // ISO: falls back; a ChameleonMini stays READY, silent
      }
      const complete = level === (tag.uid.length - 1) / 3;
      const sak = complete ? 0x08 : 0x04;
      if (complete) {
        tag.state = 'active';
        this.selects++;
      } else {
        tag.level++;
      }
      return toBits([sak, ...crcA([sak])]);
    }
    const sent = ((nvb >> 4) - 2) * 8 + (nvb & 0x0f); // UID CLn bits the reader sent
    if ((nvb & 0x0f) > 7 || nvb < 0x20 || sent > 32 || bits !== 16 + sent) return this.toIdle(tag);
    const mine = toBits(cl);
    const theirs = toBits(f.slice(2), sent);
    if (theirs.some((bit, i) => bit !== mine[i])) return null; // not our prefix: silent, still READY
    return mine.slice(sent); // ANTICOLLISION: the rest of the cascade level
  }

  /** An unexpected frame: READY/ACTIVE fall back to IDLE (READY* and ACTIVE* to HALT), without an answer. */
  private toIdle(tag: Tag): null {
    if (tag.state === 'ready' || tag.state === 'active') tag.state = tag.fromHalt ? 'halt' : 'idle';
    return null;
  }
}

function sameUid(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
