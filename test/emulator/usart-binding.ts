/**
 * A serialport binding (the `@serialport/bindings-interface` shape) whose ports are emulated devices: bytes
 * the host writes go into the device's serial receiver, bytes the device transmits come out of `read()`.
 * `SerialPortStream` from `@serialport/stream` (the class `serialport`'s `SerialPort` extends), its parsers
 * and the controller's serial driver open such a port like a real `/dev/ttyACM0`.
 *
 *   const binding = new UsartBinding();
 *   binding.attach('/dev/ttyEMU0', station);            // station: a SerialDevice (station-emulator.ts)
 *   const port = new SerialPortStream({ binding, path: '/dev/ttyEMU0', baudRate: 115200 });
 *
 * Semantics follow the real bindings where the driver can tell:
 * - `open()` asserts DTR (like the OS does): the device is told (`portOpened`), and an Arduino-style board
 *   resets there; bytes the device sent while no port was open are gone (nobody was listening).
 * - `read()` resolves with at least one byte, waiting for the device if none is buffered; `close()` makes a
 *   waiting read reject with an error whose `canceled` is true.
 * - `write()` resolves when the bytes are handed to the device (the OS would have buffered them); the device
 *   takes them at its own line rate in simulated time. `drain()` waits for the write in flight only.
 * - `flush()` discards received bytes not yet read. `set()` records the modem flags; a DTR false → true
 *   transition resets an auto-reset board, as on real hardware. `get()` reports CTS/DSR/DCD false.
 * - A baud rate more than 5 % away from the device's actual rate garbles every byte (delivered as 0xFF
 *   noise, and the device receives nothing), as a mismatched UART would.
 * - One open port per path (the real bindings lock by default): a second open rejects.
 */
import type {
  BindingInterface, BindingPortInterface, OpenOptions, PortInfo, PortStatus, SetOptions, UpdateOptions,
} from '@serialport/bindings-interface' with { 'resolution-mode': 'require' }; // its exports map has no ESM types

/** What a binding port talks to: one emulated device with a serial line. */
export interface SerialDevice {
  /** Bytes from the host to the device's receiver. */
  hostWrite(bytes: Uint8Array): void;
  /** Subscribes to the bytes the device transmits; returns the unsubscribe function. */
  onTransmit(listener: (bytes: Uint8Array) => void): () => void;
  /** The device's actual baud rate now (undefined while its UART is not configured). */
  readonly deviceBaudRate: number | undefined;
  /** DTR asserted (port opened, or DTR raised again). */
  dtrAsserted(): void;
  /** The host closed the port. */
  portClosed(): void;
}

class CanceledError extends Error {
  readonly canceled = true;
  constructor(message: string) {
    super(message);
    this.name = 'CanceledError';
  }
}

interface Entry {
  readonly device: SerialDevice;
  readonly info: PortInfo;
  port: UsartPortBinding | undefined;
}

const DEFAULT_INFO: Omit<PortInfo, 'path'> = {
  manufacturer: 'Arduino (www.arduino.cc)',
  serialNumber: undefined,
  pnpId: undefined,
  locationId: undefined,
  productId: '0043',
  vendorId: '2341',
};

function baudMatches(host: number, device: number | undefined): boolean {
  return device !== undefined && Math.abs(host - device) / device <= 0.05;
}

/** Runs `fn` and turns its result or exception into a promise (binding methods never throw synchronously). */
function attempt<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

/** One open port of a {@link UsartBinding}. */
export class UsartPortBinding implements BindingPortInterface {
  readonly openOptions: Required<OpenOptions>;
  isOpen = true;
  private received: number[] = [];
  private waitingRead: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private writing: Promise<void> | undefined;
  private readonly unsubscribe: () => void;
  private dtr = true;
  private unplugged = false;
  private baudRate: number;

  constructor(private readonly device: SerialDevice, options: Required<OpenOptions>, private readonly onClose: () => void) {
    this.openOptions = options;
    this.baudRate = options.baudRate;
    this.unsubscribe = device.onTransmit((bytes) => {
      this.deliver(bytes);
    });
    device.dtrAsserted();
  }

  /** The device went away (USB unplugged): the read in progress and every later call fail. */
  unplug(): void {
    this.unplugged = true;
    this.unsubscribe();
    const waiting = this.waitingRead;
    this.waitingRead = undefined;
    waiting?.reject(new Error('device unplugged'));
  }

  private deliver(bytes: Uint8Array): void {
    if (baudMatches(this.baudRate, this.device.deviceBaudRate)) for (const b of bytes) this.received.push(b);
    else for (let i = 0; i < bytes.length; i++) this.received.push(0xff);
    const waiting = this.waitingRead;
    this.waitingRead = undefined;
    waiting?.resolve();
  }

  private checkOpen(): void {
    if (!this.isOpen) throw new Error('Port is not open');
    if (this.unplugged) throw new Error('device unplugged');
  }

  close(): Promise<void> {
    return attempt(() => {
      if (!this.isOpen) throw new Error('Port is not open');
      this.isOpen = false;
      this.unsubscribe();
      this.received = [];
      const waiting = this.waitingRead;
      this.waitingRead = undefined;
      waiting?.reject(new CanceledError('port is closed'));
      if (!this.unplugged) this.device.portClosed();
      this.onClose();
    });
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    if (buffer.length < offset + length) throw new Error('buffer is too small');
    this.checkOpen();
    while (this.received.length === 0) {
      await new Promise<void>((resolve, reject) => {
        this.waitingRead = { resolve, reject };
      });
    }
    const n = Math.min(length, this.received.length);
    buffer.set(this.received.splice(0, n), offset);
    return { buffer, bytesRead: n };
  }

  write(buffer: Buffer): Promise<void> {
    try {
      this.checkOpen();
      if (this.writing) throw new Error('Overlapping writes are not supported and should be queued by the serialport object');
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const bytes = Uint8Array.from(buffer);
    const writing = Promise.resolve().then(() => {
      this.writing = undefined;
      if (!this.isOpen) throw new CanceledError('write canceled');
      if (baudMatches(this.baudRate, this.device.deviceBaudRate)) this.device.hostWrite(bytes);
    });
    this.writing = writing;
    return writing;
  }

  update(options: UpdateOptions): Promise<void> {
    return attempt(() => {
      this.checkOpen();
      this.baudRate = options.baudRate;
    });
  }

  set(options: SetOptions): Promise<void> {
    return attempt(() => {
      this.checkOpen();
      const dtr = options.dtr ?? true;
      if (dtr && !this.dtr) this.device.dtrAsserted();
      this.dtr = dtr;
    });
  }

  get(): Promise<PortStatus> {
    return attempt(() => {
      this.checkOpen();
      return { cts: false, dsr: false, dcd: false };
    });
  }

  getBaudRate(): Promise<{ baudRate: number }> {
    return attempt(() => {
      this.checkOpen();
      return { baudRate: this.baudRate };
    });
  }

  flush(): Promise<void> {
    return attempt(() => {
      this.checkOpen();
      this.received = [];
    });
  }

  async drain(): Promise<void> {
    this.checkOpen();
    await this.writing;
  }
}

/** A binding whose ports are emulated devices, attached by path. */
export class UsartBinding implements BindingInterface<UsartPortBinding> {
  private readonly entries = new Map<string, Entry>();

  /** Makes `device` available at `path` (listed by `list()`, opened by `open()`). */
  attach(path: string, device: SerialDevice, info: Partial<Omit<PortInfo, 'path'>> = {}): void {
    if (this.entries.has(path)) throw new Error(`${path} is already attached`);
    this.entries.set(path, { device, info: { ...DEFAULT_INFO, ...info, path }, port: undefined });
  }

  /** Unplugs the device at `path`: an open port's pending read fails (not `canceled`: a disconnection). */
  detach(path: string): void {
    const entry = this.entries.get(path);
    this.entries.delete(path);
    const port = entry?.port;
    if (port?.isOpen === true) port.unplug();
  }

  list(): Promise<PortInfo[]> {
    return Promise.resolve([...this.entries.values()].map((e) => ({ ...e.info })));
  }

  async open(options: OpenOptions): Promise<UsartPortBinding> {
    await Promise.resolve();
    const entry = this.entries.get(options.path);
    if (!entry) throw new Error(`Error: No such file or directory, cannot open ${options.path}`);
    if (entry.port?.isOpen === true) throw new Error(`Error Resource temporarily unavailable Cannot lock port ${options.path}`);
    const full: Required<OpenOptions> = {
      dataBits: 8, lock: true, stopBits: 1, parity: 'none', rtscts: false, xon: false, xoff: false, xany: false,
      hupcl: true, ...options,
    };
    const port = new UsartPortBinding(entry.device, full, () => {
      entry.port = undefined;
    });
    entry.port = port;
    return port;
  }
}
