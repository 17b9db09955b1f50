#include "settings.h"

#include <avr/eeprom.h> // the host build gets firmware/host/avr/eeprom.h, a RAM-backed fake
#include <string.h>

void settings_defaults(Settings *s) {
  memset(s, 0, sizeof(*s));
  strcpy(s->station, SETTINGS_DEFAULT_ID);
}

static void put32(uint8_t *p, uint32_t v) {
  for (uint8_t i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (uint8_t i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
  return v;
}

void settings_encode(const Settings &s, uint8_t rec[SETTINGS_RECORD_SIZE]) {
  memset(rec, 0, SETTINGS_RECORD_SIZE);
  rec[0] = 'Z';
  rec[1] = 'T';
  rec[2] = SETTINGS_VERSION;
  memcpy(rec + 3, s.station, strnlen(s.station, PROTO_MAX_STATION_ID));
  put32(rec + 20, (uint32_t)s.tare);
  put32(rec + 24, (uint32_t)s.per_kg);
  put32(rec + 28, s.boot);
  rec[32] = proto_crc8_update(0, rec, 32);
}

bool settings_decode(const uint8_t rec[SETTINGS_RECORD_SIZE], Settings *s) {
  if (rec[0] != 'Z' || rec[1] != 'T' || rec[2] != SETTINGS_VERSION) return false;
  if (proto_crc8_update(0, rec, 32) != rec[32]) return false;
  Settings out;
  memcpy(out.station, rec + 3, PROTO_MAX_STATION_ID);
  out.station[PROTO_MAX_STATION_ID] = '\0';
  if (!proto_valid_station_id(out.station, strlen(out.station))) return false;
  out.tare = (int32_t)get32(rec + 20);
  out.per_kg = (int32_t)get32(rec + 24);
  out.boot = get32(rec + 28);
  *s = out;
  return true;
}

bool settings_load(Settings *s) {
  uint8_t rec[SETTINGS_RECORD_SIZE];
  eeprom_read_block(rec, (const void *)(uintptr_t)SETTINGS_EEPROM_ADDR, SETTINGS_RECORD_SIZE);
  if (settings_decode(rec, s)) return true;
  settings_defaults(s);
  return false;
}

bool settings_save(const Settings &s) {
  uint8_t rec[SETTINGS_RECORD_SIZE];
  uint8_t back[SETTINGS_RECORD_SIZE];
  settings_encode(s, rec);
  eeprom_update_block(rec, (void *)(uintptr_t)SETTINGS_EEPROM_ADDR, SETTINGS_RECORD_SIZE);
  eeprom_read_block(back, (const void *)(uintptr_t)SETTINGS_EEPROM_ADDR, SETTINGS_RECORD_SIZE);
  return memcmp(rec, back, SETTINGS_RECORD_SIZE) == 0;
}
