/**
 * The TypeScript codec against the shared vectors (test/vectors/protocol-vectors.json), which the firmware's
 * C++ codec is checked against too (firmware/test). Also checks that the code catalogue in errors.ts, the
 * vectors and the table in hardware/protocol.md agree. (The vectors' `wrap` section drives the device-time code
 * the controller uses: test/hardware/clock/device-time.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_ERRORS, crc8, formatCommand, formatDeviceLine, isProtocolError, parseCommandLine,
  parseDeviceLine, protocolErrorName, MAX_LINE, PROTOCOL_VERSION,
  type Command, type DeviceMessage, type ProtocolErrorName,
} from '../../controller/protocol/index.ts';

interface Vectors {
  protocol: number;
  maxLine: number;
  codes: Record<string, number>;
  crc8: { input: string; crc: string }[];
  device: { name: string; line: string; message: DeviceMessage }[];
  deviceInvalid: { name: string; line: string; error: ProtocolErrorName }[];
  commands: { name: string; line: string; command: Command }[];
  commandsInvalid: { name: string; line: string; error: ProtocolErrorName; reply: string }[];
}

const root = new URL('../../', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('test/vectors/protocol-vectors.json', root), 'utf8')) as Vectors;
const noCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);

describe('protocol constants', () => {
  it('match the vectors', () => {
    expect(PROTOCOL_VERSION).toBe(vectors.protocol);
    expect(MAX_LINE).toBe(vectors.maxLine);
  });

  it('code catalogue matches the vectors and the table in hardware/protocol.md', () => {
    expect(vectors.codes).toEqual(PROTOCOL_ERRORS);
    const doc = readFileSync(new URL('hardware/protocol.md', root), 'utf8');
    const table: Record<string, number> = {};
    for (const m of doc.matchAll(/^\| *(\d+) *\| *`([A-Z_]+)` *\|/gm)) table[m[2] ?? ''] = Number(m[1]);
    expect(table).toEqual(PROTOCOL_ERRORS);
    expect(protocolErrorName(4)).toBe('CHECKSUM_MISMATCH');
    expect(protocolErrorName(200)).toBeUndefined();
  });
});

describe('crc8', () => {
  it.each(vectors.crc8)('crc8("$input") = $crc', ({ input, crc }) => {
    expect(crc8(input)).toBe(Number.parseInt(crc, 16));
  });
});

describe('device lines', () => {
  it.each(vectors.device)('parses: $name', ({ line, message }) => {
    expect(parseDeviceLine(line)).toEqual(message);
  });

  it.each(vectors.device)('formats: $name', ({ line, message }) => {
    expect(formatDeviceLine(message)).toBe(noCr(line));
  });

  it.each(vectors.deviceInvalid)('rejects: $name', ({ line, error }) => {
    const result = parseDeviceLine(line);
    expect(isProtocolError(result)).toBe(true);
    expect(result).toMatchObject({ error, code: vectors.codes[error] });
  });
});

describe('command lines', () => {
  it.each(vectors.commands)('formats: $name', ({ line, command }) => {
    expect(formatCommand(command)).toBe(noCr(line));
  });

  it.each(vectors.commands)('parses: $name', ({ line, command }) => {
    expect(parseCommandLine(line)).toEqual(command);
  });

  it.each(vectors.commandsInvalid)('rejects: $name', ({ line, error, reply }) => {
    const result = parseCommandLine(line);
    expect(result).toMatchObject({ error, code: vectors.codes[error] });
    if (!('error' in result)) return;
    // The station's answer, built from the rejection, is the exact reply line of the vector.
    expect(formatDeviceLine({ type: 'err', id: result.id, code: result.code })).toBe(reply);
  });
});
