/**
 * What a station says about itself: firmware, protocol version, kind, id and boot counter. It comes in the
 * boot banner, or in the reply to `info` (same facts) when the banner was missed — a board that does not
 * reset when the port opens, or a banner printed before the port was open.
 */
import { isValidStationId, type BannerMessage, type StationKind } from '../../protocol/index.ts';

/** The banner's facts. */
export interface StationFacts {
  /** Firmware version, `major.minor.patch`. */
  readonly firmware: string;
  /** Line protocol version the station speaks. */
  readonly protocol: number;
  readonly kind: StationKind;
  /** The station id: what the driver identifies the station by. */
  readonly station: string;
  /** Boot counter: a different value than last time means the station restarted. */
  readonly boot: number;
}

export function factsFromBanner(banner: BannerMessage): StationFacts {
  return { firmware: banner.fw, protocol: banner.proto, kind: banner.kind, station: banner.station, boot: banner.boot };
}

const CANONICAL_U32 = /^(0|[1-9][0-9]{0,9})$/;
const FW = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** Parses a canonical unsigned 32-bit decimal; undefined for anything else. */
export function parseU32Field(text: string | undefined): number | undefined {
  if (text === undefined || !CANONICAL_U32.test(text)) return undefined;
  const value = Number(text);
  return value <= 0xffff_ffff ? value : undefined;
}

/** The facts from an `info` reply's fields, or undefined when a field is missing or malformed. */
export function factsFromInfo(fields: Readonly<Record<string, string>>): StationFacts | undefined {
  const { fw, kind, id } = fields;
  const protocol = parseU32Field(fields.proto);
  const boot = parseU32Field(fields.boot);
  if (fw === undefined || !FW.test(fw) || protocol === undefined || boot === undefined) return undefined;
  if ((kind !== 'seat' && kind !== 'pile') || id === undefined || !isValidStationId(id)) return undefined;
  return { firmware: fw, protocol, kind, station: id, boot };
}
