// Settings kept in EEPROM: station id, load-cell tare and scale factor, boot counter.
//
// One record at a fixed address: magic "ZT", layout version, fields little-endian, then a CRC-8 (the
// protocol's CRC) over everything before it. A blank (0xFF) or corrupt record is replaced by defaults, so a
// fresh board boots as id "unset", uncalibrated. encode/decode are pure (host-tested); load/save use
// avr-libc's eeprom_*_block (eeprom_update_block writes only changed bytes, sparing EEPROM wear).
#ifndef ZT_SETTINGS_H
#define ZT_SETTINGS_H

#include <stdint.h>

#include "protocol.h"

#define SETTINGS_EEPROM_ADDR 16 // not 0: some AVR boards corrupt address 0 on brown-out
#define SETTINGS_VERSION 1
// magic(2) + version(1) + station(17) + tare(4) + per_kg(4) + boot(4) + crc(1)
#define SETTINGS_RECORD_SIZE 33
#define SETTINGS_DEFAULT_ID "unset"

struct Settings {
  char station[PROTO_MAX_STATION_ID + 1];
  int32_t tare;   // HX711 counts with the pad empty
  int32_t per_kg; // HX711 counts per kilogram; 0 = not calibrated (no W events)
  uint32_t boot;  // incremented at every start, printed in the banner
};

void settings_defaults(Settings *s);
void settings_encode(const Settings &s, uint8_t rec[SETTINGS_RECORD_SIZE]);
// Returns false (and leaves *s alone) for a blank or corrupt record.
bool settings_decode(const uint8_t rec[SETTINGS_RECORD_SIZE], Settings *s);

// Loads the record; on a blank/corrupt one fills defaults and returns false.
bool settings_load(Settings *s);
// Writes the record and reads it back; false when the read-back differs (STATUS_EEPROM_FAILED).
bool settings_save(const Settings &s);

#endif
