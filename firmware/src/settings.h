// Settings kept in EEPROM: station id, load-cell tare and scale factor, boot counter.
//
// Power-fail safe: two record slots, each with a sequence number and a CRC-16. A save writes the slot that
// is NOT current, with the next sequence number, payload first and CRC last; only once that record is
// complete (its CRC matches) does it become the current one. A reset or brown-out during a save — including
// the boot-counter save at every start — therefore spoils at most the slot being written, and the next
// load falls back to the other, intact slot: id and calibration are never lost, the boot counter at worst
// repeats the boot that never printed its banner.
//
// Slot layout (little-endian): magic "ZT", layout version 2, seq (uint8, newer = (a - b) mod 256 < 128),
// station (17, NUL-padded), tare (4), per_kg (4), boot (4), CRC-16/CCITT-FALSE over the 34 bytes before it.
// The version-1 record (firmware 0.1.0: one slot at address 16, CRC-8) is read when no version-2 slot is
// valid and migrated by the first save; it is never written, so it stays as a last fallback.
//
// encode/decode/pick are pure (host-tested); load/save use avr-libc's eeprom_*_block (eeprom_update_block
// writes only changed bytes, sparing EEPROM wear: a boot rewrites ~4 bytes of one slot).
#ifndef ZT_SETTINGS_H
#define ZT_SETTINGS_H

#include <stdint.h>

#include "protocol.h"

#define SETTINGS_VERSION 2
#define SETTINGS_RECORD_SIZE 36 // magic(2) version(1) seq(1) station(17) tare(4) per_kg(4) boot(4) crc16(2)
#define SETTINGS_SLOT_A_ADDR 64 // both clear of the version-1 record at 16..48
#define SETTINGS_SLOT_B_ADDR 112
#define SETTINGS_V1_ADDR 16 // not 0: some AVR boards corrupt address 0 on brown-out
#define SETTINGS_V1_SIZE 33
#define SETTINGS_DEFAULT_ID "unset"

struct Settings {
  char station[PROTO_MAX_STATION_ID + 1];
  int32_t tare;   // HX711 counts with the pad empty
  int32_t per_kg; // HX711 counts per kilogram; 0 = not calibrated (no W events)
  uint32_t boot;  // incremented at every start, printed in the banner
};

void settings_defaults(Settings *s);
uint16_t settings_crc16(const uint8_t *data, uint8_t len);
void settings_encode(const Settings &s, uint8_t seq, uint8_t rec[SETTINGS_RECORD_SIZE]);
// True (and *seq set) for a complete, valid record: magic, layout version, CRC, station id. Copies nothing.
bool settings_check(const uint8_t rec[SETTINGS_RECORD_SIZE], uint8_t *seq);
// Returns false (and leaves *s alone) for a blank or corrupt record.
bool settings_decode(const uint8_t rec[SETTINGS_RECORD_SIZE], Settings *s, uint8_t *seq);
bool settings_decode_v1(const uint8_t rec[SETTINGS_V1_SIZE], Settings *s);

// Which slot holds the current settings: 0 = A, 1 = B, -1 = neither is valid. Fills *s and *seq from it.
int8_t settings_pick(const uint8_t a[SETTINGS_RECORD_SIZE], const uint8_t b[SETTINGS_RECORD_SIZE], Settings *s,
                     uint8_t *seq);

// Loads the current record (or the version-1 one); on none fills defaults and returns false.
bool settings_load(Settings *s);
// Writes the record into the slot that is not current and reads it back; false when the read-back differs
// (STATUS_EEPROM_FAILED; the current slot is untouched then).
bool settings_save(const Settings &s);

#endif
