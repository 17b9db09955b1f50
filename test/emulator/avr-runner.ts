/**
 * Runs a compiled ATmega328P firmware (Intel HEX) in avr8js, in-process: CPU, timers 0-2, USART0, GPIO ports
 * B/C/D, SPI and EEPROM, at 16 MHz.
 *
 * Time: everything is in *simulated* time. `cycles` counts CPU clock cycles since power-on and keeps counting
 * across MCU resets (a reset rebuilds the CPU and its peripherals but the world's clock goes on), so
 * `nowUs = cycles / 16` is the one time line the device models and the tests share. The host clock is not
 * involved: `runCycles()` is synchronous and runs as fast as the host allows; `runUntil()` runs in slices and
 * yields to the Node event loop between slices (so streams, parsers and promises make progress) — see
 * station-emulator.ts for the free-running mode.
 *
 * World events (`at()`) fire between instructions at the first instruction boundary at or after their cycle,
 * i.e. within one instruction (≤ 4 cycles = 0.25 µs) of the requested time.
 *
 * Device time: the firmware's `micros()` is `((timer0 overflows << 8) + TCNT0) * 4`, and timer0 counts from
 * the cycle its prescaler was set (in the Arduino core's `init()`). `deviceMicrosAt(simUs)` computes the
 * value `micros()` returns at a given simulated time, from that start cycle, so tests compare device stamps
 * with the simulated time of what they did, exactly.
 */
import { readFileSync } from 'node:fs';
import {
  AVREEPROM, AVRIOPort, AVRSPI, AVRTimer, AVRUSART, CPU, EEPROMMemoryBackend, avrInstruction,
  eepromConfig, portBConfig, portCConfig, portDConfig, spiConfig, timer0Config, timer1Config, timer2Config,
  usart0Config,
} from 'avr8js';

/**
 * The byte every SRAM cell holds at power-on and after each reset in the emulator ("stack painting"): the C
 * runtime then writes .data and .bss, and the stack writes downwards from RAMEND, so the lowest cell above
 * .bss that no longer holds it is the deepest point the stack reached (`stackReport()`).
 */
export const SRAM_PAINT = 0xa5;
/** The first SRAM address and RAMEND of the ATmega328P (data space). */
export const SRAM_START = 0x100;
export const RAMEND = 0x8ff;

/** The seat station's crystal. */
export const CPU_HZ = 16_000_000;
export const CYCLES_PER_US = CPU_HZ / 1_000_000;
/** ATmega328P: 32 KB flash, 2 KB SRAM, 1 KB EEPROM. */
export const FLASH_BYTES = 32 * 1024;
export const SRAM_BYTES = 2048;
export const EEPROM_BYTES = 1024;

/** Parses Intel HEX (record types 00, 01, 02, 04) into a flash image; unwritten bytes stay 0xFF (erased). */
export function parseIntelHex(text: string, flashBytes = FLASH_BYTES): Uint8Array {
  const flash = new Uint8Array(flashBytes).fill(0xff);
  let base = 0;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith(':') || line.length < 11) throw new Error(`hex line ${index + 1}: not a record`);
    const bytes = Buffer.from(line.slice(1), 'hex');
    const [count = 0, hi = 0, lo = 0, type = 0] = bytes;
    if (bytes.length !== count + 5) throw new Error(`hex line ${index + 1}: length`);
    const sum = bytes.reduce((a, b) => (a + b) & 0xff, 0);
    if (sum !== 0) throw new Error(`hex line ${index + 1}: checksum`);
    const data = bytes.subarray(4, 4 + count);
    switch (type) {
      case 0: {
        const addr = base + ((hi << 8) | lo);
        if (addr + count > flashBytes) throw new Error(`hex line ${index + 1}: address ${addr} beyond flash`);
        flash.set(data, addr);
        break;
      }
      case 1: return flash;
      case 2:
        base = (((data[0] ?? 0) << 8) | (data[1] ?? 0)) * 16;
        break;
      case 4:
        base = (((data[0] ?? 0) << 8) | (data[1] ?? 0)) * 65536;
        break;
      default: // 03/05: start addresses, irrelevant here
        break;
    }
  }
  return flash;
}

/** The peripherals of one MCU instance (replaced at every reset). */
export interface Mcu {
  readonly cpu: CPU;
  readonly timer0: AVRTimer;
  readonly timer1: AVRTimer;
  readonly timer2: AVRTimer;
  readonly usart: AVRUSART;
  readonly portB: AVRIOPort;
  readonly portC: AVRIOPort;
  readonly portD: AVRIOPort;
  readonly spi: AVRSPI;
}

interface WorldEvent {
  readonly cycle: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/** A handle to cancel a scheduled world event. */
export interface Scheduled {
  cancel(): void;
}

export interface RunUntilOptions {
  /** Simulated time per slice between yields to the event loop (default 1000 µs). */
  readonly sliceUs?: number;
  /** Give up after this much simulated time (default 10 s). */
  readonly timeoutUs?: number;
}

export interface AvrRunnerOptions {
  /** The firmware as Intel HEX text. */
  readonly hex: string;
  /** Initial EEPROM contents (default: erased, all 0xFF). */
  readonly eeprom?: Uint8Array;
}

/**
 * Two deviations of avr8js 0.21.1's USART from the ATmega328P datasheet (§20.11), fixed here because they
 * lose received bytes whenever the firmware transmits while a byte arrives:
 * - a write to UCSR0B while the receiver is on cancels a pending RX-complete interrupt, though RXC0 is
 *   cleared only by reading UDR0. The Arduino core writes UCSR0B on every `Serial.write` (UDRIE0 on) and
 *   in its UDRE interrupt (UDRIE0 off), so a command byte that lands then is never read and the next one
 *   overwrites it (measured: 3 pings of 38 garbled with the weight streaming and 4 tags polled);
 * - a write to UCSR0A clears RXC0 and UDRE0, which are read-only (the core writes UCSR0A to clear TXC0).
 * The patched hooks keep RXC0/UDRE0 as they were, clear TXC0 only when a 1 is written to it, and re-queue
 * the RX interrupt when RXC0 is still set after a UCSR0B write.
 */
function fixUsartFlags(cpu: CPU, usart: AVRUSART): void {
  const RXC = 0x80;
  const TXC = 0x40;
  const UDRE = 0x20;
  const { UCSRA, UCSRB } = usart0Config;
  const rxInterrupt = (usart as unknown as { RXC: Parameters<CPU['setInterruptFlag']>[0] }).RXC;
  const writeA = cpu.writeHooks[UCSRA];
  cpu.writeHooks[UCSRA] = (value, old, addr, mask) => {
    const result = writeA?.(value, old, addr, mask);
    const keep = (old & (RXC | UDRE)) | (old & TXC & ~value);
    cpu.data[UCSRA] = ((cpu.data[UCSRA] ?? 0) & ~(RXC | UDRE | TXC)) | keep;
    return result;
  };
  const writeB = cpu.writeHooks[UCSRB];
  cpu.writeHooks[UCSRB] = (value, old, addr, mask) => {
    const received = ((cpu.data[UCSRA] ?? 0) & RXC) !== 0;
    const result = writeB?.(value, old, addr, mask);
    if (received && (value & 0x10) !== 0) { // RXEN0: the byte is still waiting in UDR0
      cpu.setInterruptFlag(rxInterrupt);
    }
    return result;
  };
}

/** Yields to the Node event loop (lets I/O callbacks and promise chains run). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class AvrRunner {
  private readonly program: Uint16Array;
  /** EEPROM cells; survive resets (the chip's EEPROM is non-volatile). */
  readonly eeprom: EEPROMMemoryBackend;
  private mcuNow: Mcu;
  private readonly attachers: ((mcu: Mcu) => void)[] = [];
  private events: WorldEvent[] = [];
  private eventSeq = 0;
  private heldUntil = 0;
  private breakRequested = false;
  private timer0Start: number | undefined;
  private tcnt0Reads: number[] | undefined;
  /** Resets so far (0 at power-on). */
  resets = 0;
  /** Where the running `runToCycle()` slice stops next (the earliest event, or its target). */
  private limitCycle = 0;
  /** Lowest stack pointer seen since `trackStackPointer()` was turned on (this boot), or undefined. */
  private minSp: number | undefined;
  /** Interrupts-off sections opened by a `cli` instruction, per `cli` address (see `trackInterruptsOff`). */
  private cliSections: Map<number, { count: number; maxCycles: number }> | undefined;
  private cliOpen: { readonly pc: number; readonly cycle: number } | undefined;

  constructor(options: AvrRunnerOptions) {
    const flash = parseIntelHex(options.hex);
    this.program = new Uint16Array(flash.buffer, flash.byteOffset, flash.byteLength / 2);
    this.eeprom = new EEPROMMemoryBackend(EEPROM_BYTES);
    this.eeprom.memory.fill(0xff);
    if (options.eeprom) this.eeprom.memory.set(options.eeprom.subarray(0, EEPROM_BYTES));
    this.mcuNow = this.build(0);
  }

  /** Loads a `.hex` file. */
  static fromFile(path: string, eeprom?: Uint8Array): AvrRunner {
    return new AvrRunner({ hex: readFileSync(path, 'utf8'), ...(eeprom ? { eeprom } : {}) });
  }

  /** The current MCU (CPU and peripherals); a new object after every `reset()`. */
  get mcu(): Mcu {
    return this.mcuNow;
  }

  /** Simulated CPU cycles since power-on (continuous across resets). */
  get cycles(): number {
    return this.mcuNow.cpu.cycles;
  }

  /** Simulated time since power-on in µs (fractional). */
  get nowUs(): number {
    return this.mcuNow.cpu.cycles / CYCLES_PER_US;
  }

  /**
   * Registers a function that wires a device model to the MCU; called now and again after every reset (the
   * peripherals are new objects then). Models keep their own state across resets.
   */
  onAttach(attach: (mcu: Mcu) => void): void {
    this.attachers.push(attach);
    attach(this.mcuNow);
  }

  /**
   * Resets the MCU (as the RESET pin or the DTR auto-reset does): a new CPU and peripherals, SRAM cleared,
   * EEPROM kept, time going on. `holdUs` keeps the CPU from running for that long first (a bootloader's
   * wait), without spending host time on it.
   */
  reset(holdUs = 0): void {
    const cycles = this.cycles;
    this.resets++;
    this.timer0Start = undefined;
    if (this.minSp !== undefined) this.minSp = RAMEND;
    this.mcuNow = this.build(cycles);
    this.heldUntil = cycles + Math.round(holdUs * CYCLES_PER_US);
    for (const attach of this.attachers) attach(this.mcuNow);
  }

  /** Runs `fn` at simulated cycle `cycle` (or at once, between instructions, when that is past). */
  atCycle(cycle: number, fn: () => void): Scheduled {
    const ev: WorldEvent = { cycle: Math.max(cycle, this.cycles), seq: this.eventSeq++, fn, cancelled: false };
    if (ev.cycle < this.limitCycle) this.limitCycle = ev.cycle;
    let i = this.events.length;
    while (i > 0 && (this.events[i - 1]?.cycle ?? 0) > ev.cycle) i--;
    this.events.splice(i, 0, ev);
    return { cancel: () => {
      ev.cancelled = true;
    } };
  }

  /** Runs `fn` at simulated time `simUs`. */
  at(simUs: number, fn: () => void): Scheduled {
    return this.atCycle(Math.round(simUs * CYCLES_PER_US), fn);
  }

  /** Runs `fn` `delayUs` from now. */
  after(delayUs: number, fn: () => void): Scheduled {
    return this.atCycle(this.cycles + Math.round(delayUs * CYCLES_PER_US), fn);
  }

  /**
   * Asks the current `runToCycle()` to return after the world event being fired (used when host code must
   * run at this simulated instant: a host timer, a line that reached the host).
   */
  requestBreak(): void {
    this.breakRequested = true;
  }

  /**
   * Executes instructions until `cycles >= target`, firing world events on the way. Synchronous. Returns
   * false when it stopped early because a world event called `requestBreak()`.
   */
  runToCycle(target: number): boolean {
    for (;;) {
      this.fireDueEvents();
      if (this.breakRequested) {
        this.breakRequested = false;
        return false;
      }
      const cpu = this.mcuNow.cpu;
      if (cpu.cycles >= target) return true;
      const next = this.events[0];
      // A device model may schedule an event from inside an instruction (an SPI byte, a pin write): atCycle()
      // lowers `limitCycle` then, so the loop stops in time to fire it.
      this.limitCycle = next && next.cycle < target ? next.cycle : target;
      if (cpu.cycles < this.heldUntil) {
        cpu.cycles = Math.min(this.limitCycle, this.heldUntil); // held in reset: time passes, nothing executes
        continue;
      }
      if (this.cliSections !== undefined) {
        this.runTrackingCli(cpu);
      } else if (this.minSp === undefined) {
        while (cpu.cycles < this.limitCycle) {
          avrInstruction(cpu);
          cpu.tick();
        }
      } else {
        let minSp = this.minSp;
        while (cpu.cycles < this.limitCycle) {
          avrInstruction(cpu);
          cpu.tick();
          const sp = cpu.SP;
          if (sp < minSp) minSp = sp;
        }
        this.minSp = minSp;
      }
    }
  }

  /** Runs `us` of simulated time synchronously (host work requested meanwhile waits until it returns). */
  runUs(us: number): void {
    const target = this.cycles + Math.round(us * CYCLES_PER_US);
    while (!this.runToCycle(target));
  }

  /**
   * Runs in slices, yielding to the event loop between them, until `until` holds (a predicate, checked after
   * every slice and every world event) or the simulated time `until` (µs) is reached. Resolves true when the
   * condition was met, false on timeout.
   */
  async runUntil(until: (() => boolean) | number, options: RunUntilOptions = {}): Promise<boolean> {
    const sliceCycles = Math.round((options.sliceUs ?? 1000) * CYCLES_PER_US);
    if (typeof until === 'number') {
      const target = Math.round(until * CYCLES_PER_US);
      while (this.cycles < target) {
        this.runToCycle(Math.min(target, this.cycles + sliceCycles));
        await yieldToEventLoop();
      }
      return true;
    }
    const deadline = this.cycles + Math.round((options.timeoutUs ?? 10_000_000) * CYCLES_PER_US);
    for (;;) {
      if (until()) return true;
      if (this.cycles >= deadline) return false;
      this.runToCycle(Math.min(deadline, this.cycles + sliceCycles));
      await yieldToEventLoop();
    }
  }

  /**
   * Starts (or, with false, stops) recording the cycle of every TCNT0 read — one per `micros()` call — and
   * returns the (live) list.
   */
  traceMicrosCalls(on = true): number[] {
    if (!on) {
      const list = this.tcnt0Reads ?? [];
      this.tcnt0Reads = undefined;
      return list;
    }
    this.tcnt0Reads ??= [];
    return this.tcnt0Reads;
  }

  /**
   * Starts recording the lowest stack pointer after every instruction (costs a little speed; off by default).
   * A reset starts a new record.
   */
  trackStackPointer(): void {
    this.minSp = this.mcuNow.cpu.SP;
  }

  /**
   * Starts recording every interrupts-off section that a `cli` instruction opens (`noInterrupts()`, and
   * `micros()`'s own): from the `cli` to the instruction that sets SREG.I again (`sei`, or SREG restored).
   * Sections the hardware opens (an ISR's entry) are not counted. Returns the live map: byte address of the
   * `cli` → how often it ran and its longest section in cycles. Costs speed; off by default.
   */
  trackInterruptsOff(): Map<number, { count: number; maxCycles: number }> {
    this.cliSections ??= new Map();
    return this.cliSections;
  }

  private runTrackingCli(cpu: CPU): void {
    const sections = this.cliSections;
    if (!sections) return;
    while (cpu.cycles < this.limitCycle) {
      const pc = cpu.pc;
      const opcode = this.program[pc];
      const iBefore = (cpu.data[0x5f] ?? 0) & 0x80;
      avrInstruction(cpu);
      const iAfter = (cpu.data[0x5f] ?? 0) & 0x80; // before tick(): an interrupt it takes clears I again
      cpu.tick();
      if (opcode === 0x94f8 && iBefore !== 0) { // cli with interrupts on: a section opens
        this.cliOpen = { pc: pc * 2, cycle: cpu.cycles };
      } else if (iAfter !== 0 && this.cliOpen !== undefined) {
        const cycles = cpu.cycles - this.cliOpen.cycle;
        const entry = sections.get(this.cliOpen.pc) ?? { count: 0, maxCycles: 0 };
        entry.count++;
        entry.maxCycles = Math.max(entry.maxCycles, cycles);
        sections.set(this.cliOpen.pc, entry);
        this.cliOpen = undefined;
      }
    }
  }

  /** The lowest SP seen since `trackStackPointer()`, or undefined when not tracking. */
  get lowestStackPointer(): number | undefined {
    return this.minSp;
  }

  /**
   * How deep the stack has gone this boot, from the paint: `deepest` is the lowest address above `bssEnd`
   * (the end of the firmware's static RAM, symbol `__bss_end`) that no longer holds {@link SRAM_PAINT};
   * `usedBytes` = RAMEND − deepest + 1; `freeBytes` = the cells between the static RAM and that point, never
   * written. (A stack byte that happens to equal the paint at the very bottom would hide one byte; the SP
   * record cross-checks it.)
   */
  stackReport(bssEnd: number): { readonly deepest: number; readonly usedBytes: number; readonly freeBytes: number } {
    const data = this.mcuNow.cpu.data;
    let deepest = RAMEND + 1;
    for (let addr = bssEnd; addr <= RAMEND; addr++) {
      if (data[addr] !== SRAM_PAINT) {
        deepest = addr;
        break;
      }
    }
    return { deepest, usedBytes: RAMEND - deepest + 1, freeBytes: deepest - bssEnd };
  }

  /** The cycle at which timer0 started counting after the last reset (undefined before `init()` ran). */
  get timer0StartCycle(): number | undefined {
    return this.timer0Start;
  }

  /**
   * The value the firmware's `micros()` returns at simulated time `simUs` (low 32 bits), or undefined before
   * timer0 was started. Exact up to the instruction boundary (the core's 4 µs resolution applies).
   */
  deviceMicrosAt(simUs: number): number | undefined {
    if (this.timer0Start === undefined) return undefined;
    const ticks = Math.floor((simUs * CYCLES_PER_US - this.timer0Start) / 64);
    return ticks < 0 ? undefined : (ticks * 4) % 2 ** 32;
  }

  /** The simulated time (µs) at which `micros()` read `deviceUs` (the start of that 4 µs step), this boot. */
  simUsOfDeviceMicros(deviceUs: number): number {
    if (this.timer0Start === undefined) throw new Error('timer0 has not started');
    return (this.timer0Start + deviceUs * CYCLES_PER_US) / CYCLES_PER_US;
  }

  private fireDueEvents(): void {
    for (;;) {
      const ev = this.events[0];
      if (!ev || ev.cycle > this.mcuNow.cpu.cycles) return;
      this.events.shift();
      if (!ev.cancelled) ev.fn();
    }
  }

  private build(cycles: number): Mcu {
    const cpu = new CPU(new Uint16Array(this.program), SRAM_BYTES);
    cpu.cycles = cycles;
    cpu.data.fill(SRAM_PAINT, SRAM_START, RAMEND + 1); // "stack painting" (stackReport)
    const timer0 = new AVRTimer(cpu, timer0Config);
    const timer1 = new AVRTimer(cpu, timer1Config);
    const timer2 = new AVRTimer(cpu, timer2Config);
    // Note when the core's init() sets timer0's prescaler (it sets CS01, then CS00: /8, then /64). avr8js
    // restarts its prescaler count at every change, in the tick after the writing instruction (an OUT: +1).
    const tccr0b = timer0Config.TCCRB;
    const writeTccr0b = cpu.writeHooks[tccr0b];
    cpu.writeHooks[tccr0b] = (value, old, addr, mask) => {
      if ((value & 7) !== (old & 7)) this.timer0Start = (value & 7) === 0 ? undefined : cpu.cycles + 1;
      return writeTccr0b?.(value, old, addr, mask);
    };
    // Optionally trace TCNT0 reads: every micros() call reads it once, so a trace shows exactly when the
    // firmware took each timestamp.
    const tcnt0 = timer0Config.TCNT;
    const readTcnt0 = cpu.readHooks[tcnt0];
    cpu.readHooks[tcnt0] = (addr) => {
      this.tcnt0Reads?.push(cpu.cycles);
      return readTcnt0 ? readTcnt0(addr) : cpu.data[addr] ?? 0;
    };
    const usart = new AVRUSART(cpu, usart0Config, CPU_HZ);
    fixUsartFlags(cpu, usart);
    const portB = new AVRIOPort(cpu, portBConfig);
    const portC = new AVRIOPort(cpu, portCConfig);
    const portD = new AVRIOPort(cpu, portDConfig);
    const spi = new AVRSPI(cpu, spiConfig, CPU_HZ);
    new AVREEPROM(cpu, this.eeprom, eepromConfig);
    return { cpu, timer0, timer1, timer2, usart, portB, portC, portD, spi };
  }
}
