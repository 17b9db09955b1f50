/**
 * The simulated table's serialport binding: serialport's mock binding (`MockBinding.createPort`,
 * `emitData`, `recording`) with three things added that a table needs and the mock does not have:
 *
 * - the station hears what the driver writes (the mock only records it): `write` hands the bytes on;
 * - ports can be **unplugged**: the pending read fails with a disconnection (not a cancel), so
 *   serialport closes the port with a `DisconnectedError` exactly as it does when a USB cable is pulled,
 *   and opening a port that is not plugged fails like opening a missing device;
 * - `list()` shows only this table's plugged ports.
 *
 * The mock binding object is serialport's own (`SerialPortMock.binding`): in ESM code a separate import of
 * @serialport/binding-mock would be a second copy with its own port registry (firmware-notes.md).
 */
import type {
  BindingInterface, BindingPortInterface, OpenOptions, PortInfo, PortStatus, SetOptions, UpdateOptions,
} from '@serialport/bindings-interface' with { 'resolution-mode': 'require' };
import type { CreatePortOptions, MockBindingInterface, MockPortBinding } from '@serialport/binding-mock' with { 'resolution-mode': 'require' };
import { SerialPortMock } from 'serialport';

/** What the binding tells the table, and asks it. */
export interface SimulatedPortHooks {
  /** Whether a device is plugged in at `path` now. */
  readonly isPlugged: (path: string) => boolean;
  /** The host opened `path`. */
  readonly opened: (path: string, port: SimulatedPortBinding) => void;
  /** The port at `path` was closed (by the host, or after an unplug). */
  readonly closed: (path: string, port: SimulatedPortBinding) => void;
  /** The host wrote bytes to `path`. */
  readonly received: (path: string, bytes: Buffer) => void;
}

/** serialport's mock binding (the instance serialport itself uses). */
export function serialportMockBinding(): MockBindingInterface {
  return SerialPortMock.binding;
}

/** Creates a port in the mock binding's registry (see `MockBinding.createPort`). */
export function createMockPort(path: string, options: CreatePortOptions): void {
  serialportMockBinding().createPort(path, options);
}

function disconnected(path: string): Error {
  // No `canceled` flag: serialport treats any other read/write error as a disconnection.
  return new Error(`${path}: device disconnected`);
}

export class SimulatedBinding implements BindingInterface<SimulatedPortBinding> {
  private readonly hooks: SimulatedPortHooks;
  private readonly mock: MockBindingInterface;

  constructor(hooks: SimulatedPortHooks, mock: MockBindingInterface = serialportMockBinding()) {
    this.hooks = hooks;
    this.mock = mock;
  }

  /** The plugged ports of this table (the mock's registry is shared by the whole process). */
  async list(): Promise<PortInfo[]> {
    const all = await this.mock.list();
    return all.filter((p) => this.hooks.isPlugged(p.path));
  }

  async open(options: OpenOptions): Promise<SimulatedPortBinding> {
    if (!this.hooks.isPlugged(options.path)) {
      await Promise.resolve();
      throw new Error(`Error: No such file or directory, cannot open ${options.path}`);
    }
    const inner = await this.mock.open(options);
    const port = new SimulatedPortBinding(inner, options.path, this.hooks);
    this.hooks.opened(options.path, port);
    return port;
  }
}

export class SimulatedPortBinding implements BindingPortInterface {
  /** The mock's port (its `lastWrite` shows what the host wrote last; the stations are created without `record`). */
  readonly mockPort: MockPortBinding;
  readonly path: string;
  private readonly hooks: SimulatedPortHooks;
  private open = true;
  private unplugged = false;

  constructor(mockPort: MockPortBinding, path: string, hooks: SimulatedPortHooks) {
    this.mockPort = mockPort;
    this.path = path;
    this.hooks = hooks;
  }

  get openOptions(): Required<OpenOptions> {
    return this.mockPort.openOptions;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Delivers bytes to the host (the station wrote them); false when the port is closed or unplugged. */
  emitData(bytes: string | Buffer): boolean {
    if (!this.open || this.unplugged || !this.mockPort.isOpen) return false;
    this.mockPort.emitData(bytes);
    return true;
  }

  /** The cable is pulled: the pending read fails as a disconnection and serialport closes the port. */
  unplug(): void {
    if (this.unplugged) return;
    this.unplugged = true;
    // Closing the mock releases its lock (so the path can be opened again once plugged back in) and
    // cancels the pending read; `read` below turns that cancel into a disconnection.
    if (this.mockPort.isOpen) void this.mockPort.close();
  }

  async close(): Promise<void> {
    if (!this.open) throw new Error('Port is not open');
    this.open = false;
    if (this.mockPort.isOpen) await this.mockPort.close();
    this.hooks.closed(this.path, this);
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    if (this.unplugged) throw disconnected(this.path);
    try {
      return await this.mockPort.read(buffer, offset, length);
    } catch (error) {
      // The mock cancels the pending read when `unplug()` closes it: report that as the disconnection it is.
      if (this.isUnplugged()) throw disconnected(this.path);
      throw error;
    }
  }

  async write(buffer: Buffer): Promise<void> {
    if (this.unplugged) throw disconnected(this.path);
    await this.mockPort.write(buffer);
    this.hooks.received(this.path, Buffer.from(buffer));
  }

  async update(options: UpdateOptions): Promise<void> {
    this.failIfUnplugged();
    await this.mockPort.update(options);
  }

  async set(options: SetOptions): Promise<void> {
    this.failIfUnplugged();
    await this.mockPort.set(options);
  }

  async get(): Promise<PortStatus> {
    this.failIfUnplugged();
    return this.mockPort.get();
  }

  async getBaudRate(): Promise<{ baudRate: number }> {
    this.failIfUnplugged();
    return this.mockPort.getBaudRate();
  }

  async flush(): Promise<void> {
    this.failIfUnplugged();
    await this.mockPort.flush();
  }

  async drain(): Promise<void> {
    this.failIfUnplugged();
    await this.mockPort.drain();
  }

  /** A method, not the field: the flag changes while a read is pending. */
  private isUnplugged(): boolean {
    return this.unplugged;
  }

  private failIfUnplugged(): void {
    if (this.unplugged) throw disconnected(this.path);
  }
}
