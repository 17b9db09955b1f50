/** The hardware layer's and the transport's log lines as one compact line each on the terminal. */
import type { HardwareLogger, LogFields } from '../hardware/serial/index.ts';

export function terminalLogger(say: (line: string) => void): HardwareLogger {
  const line = (level: string, message: string, fields?: LogFields): void => {
    const detail = Object.entries(fields ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`).join(' ');
    say(`${level}${message}${detail ? ` (${detail})` : ''}`);
  };
  return {
    debug: () => undefined,
    info: (m, f) => {
      line('', m, f);
    },
    warn: (m, f) => {
      line('warning: ', m, f);
    },
  };
}
