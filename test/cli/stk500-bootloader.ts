/**
 * A model of an Arduino's STK500v1 bootloader (Optiboot on an Uno or a new Nano, ATmegaBOOT on an old Nano)
 * behind a serialport 9 binding, so `zaptable flash` runs avrgirl-arduino's whole upload — DTR reset,
 * sync, signature, programming mode, every page written and read back — against it without hardware.
 *
 * The model keeps a flash image: pages written with PROG_PAGE land at the last LOAD_ADDRESS (a word
 * address), READ_PAGE returns what is there. It answers only at its own baud rate (a mismatch: silence, as
 * garbled bytes are to a real bootloader) and only after a DTR reset (the bootloader runs after a reset).
 * Commands follow the STK500v1 subset avrgirl's `stk500` package sends; anything else is answered NOSYNC.
 */
const INSYNC = 0x14;
const OK = 0x10;
const NOSYNC = 0x15;
const EOP = 0x20;

export interface BootloaderOptions {
  /** The baud rate the bootloader listens at (Optiboot 115200, ATmegaBOOT 57600). */
  readonly baud: number;
  /** What READ_SIGN answers (ATmega328P: 1e 95 0f). */
  readonly signature?: readonly number[];
  /** Flash size in bytes. */
  readonly flashBytes?: number;
  /** A flash cell that does not take what is written to it (bit 0 flipped): a worn or damaged chip. */
  readonly badCell?: number;
}

export class Stk500Bootloader {
  readonly flash: Uint8Array;
  /** DTR resets seen. */
  resets = 0;
  /** Pages written (PROG_PAGE commands). */
  pagesWritten = 0;
  private rx: number[] = [];
  private active = false;
  private address = 0;
  private dtr = true;
  private readonly listeners = new Set<(bytes: Buffer) => void>();

  constructor(private readonly options: BootloaderOptions) {
    this.flash = new Uint8Array(options.flashBytes ?? 32 * 1024).fill(0xff);
  }

  /** The port's modem lines changed: DTR falling then rising is the auto-reset, and starts the bootloader. */
  setDtr(dtr: boolean): void {
    if (dtr && !this.dtr) {
      this.resets++;
      this.active = true;
      this.rx = [];
    }
    this.dtr = dtr;
  }

  onTransmit(listener: (bytes: Buffer) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Bytes from the host at `baud`. */
  receive(bytes: Buffer, baud: number): void {
    if (!this.active || baud !== this.options.baud) return;
    this.rx.push(...bytes);
    for (;;) {
      const used = this.command();
      if (used === 0) return;
      this.rx.splice(0, used);
    }
  }

  private send(bytes: readonly number[]): void {
    const buffer = Buffer.from(bytes);
    setImmediate(() => {
      for (const listener of this.listeners) listener(buffer);
    });
  }

  /** Executes the command at the head of the buffer; returns the bytes it used (0: incomplete). */
  private command(): number {
    const rx = this.rx;
    const [cmd] = rx;
    if (cmd === undefined) return 0;
    const need = (n: number): boolean => rx.length >= n;
    const framed = (n: number): boolean => rx[n - 1] === EOP;
    switch (cmd) {
      case 0x30: // GET_SYNC
      case 0x50: // ENTER_PROGMODE
      case 0x51: // LEAVE_PROGMODE
        if (!need(2)) return 0;
        this.send(framed(2) ? [INSYNC, OK] : [NOSYNC]);
        return 2;
      case 0x75: // READ_SIGN
        if (!need(2)) return 0;
        this.send(framed(2) ? [INSYNC, ...(this.options.signature ?? [0x1e, 0x95, 0x0f]), OK] : [NOSYNC]);
        return 2;
      case 0x42: // SET_DEVICE: 20 parameter bytes
        if (!need(22)) return 0;
        this.send(framed(22) ? [INSYNC, OK] : [NOSYNC]);
        return 22;
      case 0x55: { // LOAD_ADDRESS: low, high (a word address)
        if (!need(4)) return 0;
        this.address = ((rx[1] ?? 0) | ((rx[2] ?? 0) << 8)) * 2;
        this.send(framed(4) ? [INSYNC, OK] : [NOSYNC]);
        return 4;
      }
      case 0x64: { // PROG_PAGE: size high, size low, 'F', data…, EOP
        if (!need(4)) return 0;
        const size = ((rx[1] ?? 0) << 8) | (rx[2] ?? 0);
        if (!need(5 + size)) return 0;
        if (framed(5 + size) && rx[3] === 0x46) {
          this.flash.set(rx.slice(4, 4 + size), this.address);
          const bad = this.options.badCell;
          if (bad !== undefined && bad >= this.address && bad < this.address + size) this.flash[bad] = (this.flash[bad] ?? 0) ^ 1;
          this.pagesWritten++;
          this.send([INSYNC, OK]);
        } else {
          this.send([NOSYNC]);
        }
        return 5 + size;
      }
      case 0x74: { // READ_PAGE: size high, size low, 'F', EOP
        if (!need(5)) return 0;
        const size = ((rx[1] ?? 0) << 8) | (rx[2] ?? 0);
        this.send(framed(5) ? [INSYNC, ...this.flash.subarray(this.address, this.address + size), OK] : [NOSYNC]);
        return 5;
      }
      default:
        this.send([NOSYNC]);
        return 1;
    }
  }
}

/**
 * A serialport 9 binding class (what `new SerialPort(path, { binding })` instantiates) whose every port is
 * `device`. Promise-based, as `@serialport/binding-abstract` 9 specifies.
 */
export function bindingFor(device: Stk500Bootloader): unknown {
  return class Stk500Binding {
    isOpen = false;
    private baud = 0;
    private received: number[] = [];
    private waiting: (() => void) | undefined;
    private unsubscribe: (() => void) | undefined;

    static list(): Promise<unknown[]> {
      return Promise.resolve([]);
    }

    open(_path: string, options: { baudRate: number }): Promise<void> {
      this.isOpen = true;
      this.baud = options.baudRate;
      this.unsubscribe = device.onTransmit((bytes) => {
        this.received.push(...bytes);
        this.waiting?.();
      });
      return Promise.resolve();
    }

    close(): Promise<void> {
      this.isOpen = false;
      this.unsubscribe?.();
      this.waiting?.();
      return Promise.resolve();
    }

    async read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number; buffer: Buffer }> {
      while (this.received.length === 0) {
        if (!this.isOpen) throw Object.assign(new Error('port closed'), { canceled: true });
        await new Promise<void>((resolve) => {
          this.waiting = resolve;
        });
      }
      const n = Math.min(length, this.received.length);
      buffer.set(this.received.splice(0, n), offset);
      return { bytesRead: n, buffer };
    }

    write(buffer: Buffer): Promise<void> {
      device.receive(Buffer.from(buffer), this.baud);
      return Promise.resolve();
    }

    update(options: { baudRate: number }): Promise<void> {
      this.baud = options.baudRate;
      return Promise.resolve();
    }

    set(options: { dtr?: boolean }): Promise<void> {
      if (options.dtr !== undefined) device.setDtr(options.dtr);
      return Promise.resolve();
    }

    get(): Promise<{ cts: boolean; dsr: boolean; dcd: boolean }> {
      return Promise.resolve({ cts: false, dsr: false, dcd: false });
    }

    getBaudRate(): Promise<{ baudRate: number }> {
      return Promise.resolve({ baudRate: this.baud });
    }

    flush(): Promise<void> {
      this.received = [];
      return Promise.resolve();
    }

    drain(): Promise<void> {
      return Promise.resolve();
    }
  };
}
