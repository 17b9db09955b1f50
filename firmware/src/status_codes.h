// Numbered status codes of the zaptable line protocol (grbl style: one header, one table).
//
// The same catalogue, with the same numbers and names, lives in controller/protocol/errors.ts and in the
// table in hardware/protocol.md. Numbers are stable: never renumber, only append.
//
// A device answers a bad command line with `err <id|-> <code>`. The host codec uses the same codes when it
// rejects a bad device line. Checks run in the order of the numbers 1..8, so a line with several faults
// always gets the same (first) code on both sides.
#ifndef ZT_STATUS_CODES_H
#define ZT_STATUS_CODES_H

#define STATUS_OK 0                  // not sent: the reply is `ok`
#define STATUS_LINE_TOO_LONG 1       // more than PROTO_MAX_LINE bytes before `\n`; the line was discarded
#define STATUS_BAD_CHARACTER 2       // a byte outside printable ASCII 0x20..0x7E, or `*` inside the payload
#define STATUS_CHECKSUM_MISSING 3    // the line does not end in `*` + two uppercase hex digits
#define STATUS_CHECKSUM_MISMATCH 4   // the CRC-8 of the payload is not the one given after `*`
#define STATUS_BAD_SYNTAX 5          // layout: empty payload, stray spaces, bad command id / seq / time field
#define STATUS_UNKNOWN_KEYWORD 6     // unknown command verb (device) or unknown line type / event (host)
#define STATUS_BAD_ARGUMENT 7        // wrong number of arguments or a malformed argument
#define STATUS_OUT_OF_RANGE 8        // a well-formed number outside its allowed range
#define STATUS_NOT_SUPPORTED 9       // the command exists but not on this station kind (e.g. `tare` on a pile)
#define STATUS_SENSOR_TIMEOUT 10     // the load cell gave no reading in time (HX711 not ready)
#define STATUS_CALIBRATION_FAILED 11 // the known mass barely moves the reading (or the factor is out of range)
#define STATUS_EEPROM_FAILED 12      // the settings read back differently after writing them

#endif
