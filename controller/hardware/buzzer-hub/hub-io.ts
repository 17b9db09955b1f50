/**
 * The part of a johnny-five IO plugin (firmata-io, mock-firmata, a GPIO plugin) the hub touches directly.
 * johnny-five types `board.io` as `any`; this names what the hub relies on.
 */
export interface HubIo {
  readonly name?: string;
  /** Firmata's mode numbers; `PULLUP` (INPUT_PULLUP, Firmata ≥ 2.5) where the IO knows it. */
  readonly MODES: { readonly INPUT: number; readonly OUTPUT: number; readonly PULLUP?: number };
  /** The capability report: per pin number, the modes the pin supports (empty: the board reserves it). */
  readonly pins?: readonly ({ readonly supportedModes?: readonly number[] } | undefined)[];
  readonly HIGH: number;
  readonly LOW: number;
  pinMode(pin: number, mode: number): void;
  digitalWrite(pin: number, value: number): void;
  digitalRead(pin: number, callback: (value: number) => void): void;
  /** firmata-io: switches the reporting of `pin`'s port (8 pins) on or off. */
  reportDigitalPin?(pin: number, value: 0 | 1): void;
  /** firmata-io: the sketch's name and version from REPORT_FIRMWARE. */
  readonly firmware?: { readonly name?: string; readonly version?: { readonly major?: number; readonly minor?: number } };
  /** firmata-io: the Firmata protocol version from REPORT_VERSION. */
  readonly version?: { readonly major?: number; readonly minor?: number };
  /** firmata-io: writes handed to the transport whose callback has not run yet. */
  readonly pending?: number;
  /** firmata-io: the serial port (serialport 8, or the port `openPort` made). */
  readonly transport?: {
    readonly isOpen?: boolean;
    close?(callback?: (error?: Error | null) => void): void;
    /** serialport: calls back once the OS has sent what was written (tcdrain). */
    drain?(callback?: (error?: Error | null) => void): void;
  };
}

/** "StandardFirmata.ino 2.5 (Firmata 2.5)" from what the IO reported; undefined when it reported nothing. */
export function describeFirmware(io: HubIo): string | undefined {
  const fw = io.firmware;
  const version = (v: { major?: number; minor?: number } | undefined): string =>
    v?.major === undefined ? '' : ` ${v.major}.${v.minor ?? 0}`;
  const sketch = fw?.name ? `${fw.name}${version(fw.version)}` : undefined;
  const protocol = io.version?.major === undefined ? undefined : `Firmata${version(io.version)}`;
  if (sketch !== undefined && protocol !== undefined) return `${sketch} (${protocol})`;
  return sketch ?? protocol;
}

/**
 * Waits, at most `timeoutMs`, until every write the IO made has reached the port and the port has sent it.
 * A serialport stream queues writes and `close()` drops the queued ones: the lamps' `off()` and the piezo's
 * `noTone()` written just before it never reached the board (seen on the real StandardFirmata: a lamp stayed
 * lit after `stop()`). firmata-io counts its writes in flight (`pending`, as johnny-five's own SIGINT
 * handler waits for); then `drain` waits for the OS. Never throws: a port that fails now is closed anyway.
 */
export async function flushWrites(io: HubIo | undefined, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((io?.pending ?? 0) > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const transport = io?.transport;
  if (transport?.drain === undefined || transport.isOpen === false) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    try {
      transport.drain?.(done);
    } catch {
      done();
    }
  });
}

/** Closes the IO's serial port if it has one that is open; never throws (the port may already be gone). */
export function closeTransport(io: HubIo | undefined): Promise<void> {
  const transport = io?.transport;
  if (transport?.close === undefined || transport.isOpen === false) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      transport.close?.(() => {
        resolve();
      });
    } catch {
      // Closing a port that is still opening or already closed throws in serialport 8: nothing left to do.
      resolve();
    }
  });
}

/**
 * Clears the timers johnny-five and firmata-io arm while connecting and keep no handle to cancel: the
 * Board's connect timeout (`timer`, 10 s) and Firmata's version request (`reportVersionTimeoutId`, 5 s).
 * Left alone they keep the process alive after `stop()` and then write to a closed port.
 */
export function clearConnectTimers(board: { timer?: unknown; io?: unknown } | undefined): void {
  const clear = (timer: unknown): void => {
    if (timer !== null && typeof timer === 'object') clearTimeout(timer as NodeJS.Timeout);
  };
  clear(board?.timer);
  const io = board?.io;
  if (io !== null && typeof io === 'object' && 'reportVersionTimeoutId' in io) clear(io.reportVersionTimeoutId);
}
