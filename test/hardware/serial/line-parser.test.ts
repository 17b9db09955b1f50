/**
 * The driver's line splitting (parser-readline, bounded): whatever chunks the USB-serial chip delivers, the
 * lines that come out are the lines that went in. Every chunk size, every split point, several lines in
 * one chunk, and the overlong-input guard.
 */
import { describe, expect, it } from 'vitest';
import { formatDeviceLine, parseDeviceLine } from '../../../controller/protocol/index.ts';
import { BoundedLineParser } from '../../../controller/hardware/serial/line-parser.ts';

const LINES = [
  formatDeviceLine({ type: 'banner', fw: '0.1.0', proto: 1, kind: 'seat', station: 'seat-1', boot: 17 }),
  formatDeviceLine({ type: 'event', seq: 0, t: 1234567, event: 'TAG+', uid: '04A1B2C3' }),
  formatDeviceLine({ type: 'event', seq: 1, t: 1500000, event: 'W', grams: 12.3, stable: true }),
  formatDeviceLine({ type: 'ok', id: 7, fields: { t: '81234567' } }),
  formatDeviceLine({ type: 'err', id: null, code: 3 }),
];

/** Feeds `chunks` one write at a time and returns the lines and overflows the parser produced. */
function feed(chunks: readonly Buffer[], maxBufferedBytes?: number): { lines: string[]; overflows: number[] } {
  const lines: string[] = [];
  const overflows: number[] = [];
  const parser = new BoundedLineParser((n) => overflows.push(n), maxBufferedBytes);
  parser.on('data', (line: string) => lines.push(line));
  for (const chunk of chunks) parser.write(chunk);
  return { lines, overflows };
}

function chunked(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

describe('BoundedLineParser (parser-readline with a bound)', () => {
  it('yields one line whole whatever the chunk size, 1 byte to the whole line', () => {
    for (const line of LINES) {
      const data = Buffer.from(`${line}\n`, 'latin1');
      for (let size = 1; size <= data.length; size++) {
        const { lines } = feed(chunked(data, size));
        expect(lines, `chunk size ${size}`).toEqual([line]);
        expect(parseDeviceLine(lines[0] ?? '')).not.toHaveProperty('error');
      }
    }
  });

  it('yields one line whole wherever it is split in two', () => {
    const line = LINES[1] as string;
    const data = Buffer.from(`${line}\n`, 'latin1');
    for (let at = 1; at < data.length; at++) {
      expect(feed([data.subarray(0, at), data.subarray(at)]).lines, `split at ${at}`).toEqual([line]);
    }
  });

  it('yields every line of a chunk holding several lines, and of lines straddling chunk boundaries', () => {
    const data = Buffer.from(LINES.map((l) => `${l}\n`).join(''), 'latin1');
    expect(feed([data]).lines).toEqual(LINES);
    for (let size = 1; size <= data.length; size += 7) expect(feed(chunked(data, size)).lines, `chunk size ${size}`).toEqual(LINES);
  });

  it('keeps a trailing \\r for the codec (which tolerates one) and bytes outside ASCII one-to-one', () => {
    const { lines } = feed([Buffer.from(`${LINES[1] ?? ''}\r\n`, 'latin1'), Buffer.from([0x41, 0xff, 0x00, 0x0a])]);
    expect(lines[0]).toBe(`${LINES[1] ?? ''}\r`);
    expect(parseDeviceLine(lines[0] ?? '')).not.toHaveProperty('error');
    expect(lines[1]).toHaveLength(3);
    expect(parseDeviceLine(lines[1] ?? '')).toMatchObject({ error: 'BAD_CHARACTER' });
  });

  it('discards an overlong run up to the next newline, reports it once, and recovers at the next line', () => {
    const noise = Buffer.alloc(5000, 0x41);
    const good = LINES[2] as string;
    const { lines, overflows } = feed([...chunked(noise, 333), Buffer.from(`tail\n${good}\n`, 'latin1')], 512);
    expect(overflows).toHaveLength(1);
    expect(lines).toEqual([good]);
  });

  it('delivers a line that is only a little too long whole, for the codec to name', () => {
    const long = `${'E 1 2 TAG+ 04A1B2C3 '.repeat(6)}*00`;
    const { lines, overflows } = feed([Buffer.from(`${long}\n`, 'latin1')]);
    expect(overflows).toEqual([]);
    expect(parseDeviceLine(lines[0] ?? '')).toMatchObject({ error: 'LINE_TOO_LONG' });
  });
});
