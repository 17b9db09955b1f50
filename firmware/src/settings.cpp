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

// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): check value 0x29B1 for "123456789".
uint16_t settings_crc16(const uint8_t *data, uint8_t len) {
  uint16_t crc = 0xFFFF;
  for (uint8_t i = 0; i < len; i++) {
    crc ^= (uint16_t)data[i] << 8;
    for (uint8_t b = 0; b < 8; b++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
  }
  return crc;
}

void settings_encode(const Settings &s, uint8_t seq, uint8_t rec[SETTINGS_RECORD_SIZE]) {
  memset(rec, 0, SETTINGS_RECORD_SIZE);
  rec[0] = 'Z';
  rec[1] = 'T';
  rec[2] = SETTINGS_VERSION;
  rec[3] = seq;
  memcpy(rec + 4, s.station, strnlen(s.station, PROTO_MAX_STATION_ID));
  put32(rec + 21, (uint32_t)s.tare);
  put32(rec + 25, (uint32_t)s.per_kg);
  put32(rec + 29, s.boot);
  uint16_t crc = settings_crc16(rec, 34);
  rec[34] = (uint8_t)(crc & 0xFF);
  rec[35] = (uint8_t)(crc >> 8);
}

// The station id as stored (16 bytes + NUL pad): valid and NUL-terminated?
static bool decode_station(const uint8_t *p, char out[PROTO_MAX_STATION_ID + 1]) {
  memcpy(out, p, PROTO_MAX_STATION_ID);
  out[PROTO_MAX_STATION_ID] = '\0';
  return proto_valid_station_id(out, strlen(out));
}

// The station id as stored: valid and NUL-terminated? (No copy: this runs on the boot path, where stack
// depth counts.)
static bool station_ok(const uint8_t *p) {
  return proto_valid_station_id((const char *)p, strnlen((const char *)p, PROTO_MAX_STATION_ID));
}

bool settings_check(const uint8_t rec[SETTINGS_RECORD_SIZE], uint8_t *seq) {
  if (rec[0] != 'Z' || rec[1] != 'T' || rec[2] != SETTINGS_VERSION) return false;
  uint16_t crc = settings_crc16(rec, 34);
  if (rec[34] != (uint8_t)(crc & 0xFF) || rec[35] != (uint8_t)(crc >> 8)) return false;
  if (!station_ok(rec + 4)) return false;
  *seq = rec[3];
  return true;
}

bool settings_decode(const uint8_t rec[SETTINGS_RECORD_SIZE], Settings *s, uint8_t *seq) {
  if (!settings_check(rec, seq)) return false;
  Settings out;
  if (!decode_station(rec + 4, out.station)) return false;
  out.tare = (int32_t)get32(rec + 21);
  out.per_kg = (int32_t)get32(rec + 25);
  out.boot = get32(rec + 29);
  *s = out;
  return true;
}

bool settings_decode_v1(const uint8_t rec[SETTINGS_V1_SIZE], Settings *s) {
  if (rec[0] != 'Z' || rec[1] != 'T' || rec[2] != 1) return false;
  if (proto_crc8_update(0, rec, 32) != rec[32]) return false;
  Settings out;
  if (!decode_station(rec + 3, out.station)) return false;
  out.tare = (int32_t)get32(rec + 20);
  out.per_kg = (int32_t)get32(rec + 24);
  out.boot = get32(rec + 28);
  *s = out;
  return true;
}

// Which of two valid/invalid slots is current: 0 = A, 1 = B, -1 = neither (va/vb: valid; qa/qb: seq).
static int8_t pick(bool va, uint8_t qa, bool vb, uint8_t qb) {
  if (!va && !vb) return -1;
  // Both valid: the newer one (sequence numbers wrap; the two slots are normally one apart).
  bool take_b = vb && (!va || (uint8_t)(qb - qa) < 128);
  if (take_b && va && qa == qb) take_b = false; // equal (cannot happen by our writes): prefer A
  return take_b ? 1 : 0;
}

int8_t settings_pick(const uint8_t a[SETTINGS_RECORD_SIZE], const uint8_t b[SETTINGS_RECORD_SIZE], Settings *s,
                     uint8_t *seq) {
  uint8_t qa = 0, qb = 0;
  bool va = settings_check(a, &qa);
  bool vb = settings_check(b, &qb);
  int8_t which = pick(va, qa, vb, qb);
  if (which >= 0) settings_decode(which == 1 ? b : a, s, seq); // checked above: cannot fail
  return which;
}

static const uint16_t kSlotAddr[2] = {SETTINGS_SLOT_A_ADDR, SETTINGS_SLOT_B_ADDR};
static_assert(SETTINGS_RECORD_SIZE % 4 == 0, "settings_save reads the record back 4 bytes at a time");
static_assert(SETTINGS_V1_SIZE <= SETTINGS_RECORD_SIZE, "settings_load reads the version-1 record into the same buffer");

// Which slot is current (-1: none) and its sequence number. Reads one slot at a time into the caller's
// buffer (the boot path's stack depth counts: firmware/README.md, Budget); on return `rec` holds the last
// slot read, not necessarily the current one.
static int8_t current_slot(uint8_t rec[SETTINGS_RECORD_SIZE], uint8_t *seq) {
  uint8_t q[2] = {0, 0};
  bool valid[2];
  for (uint8_t i = 0; i < 2; i++) {
    eeprom_read_block(rec, (const void *)(uintptr_t)kSlotAddr[i], SETTINGS_RECORD_SIZE);
    valid[i] = settings_check(rec, &q[i]);
  }
  int8_t which = pick(valid[0], q[0], valid[1], q[1]);
  if (which >= 0) *seq = q[(uint8_t)which];
  return which;
}

bool settings_load(Settings *s) {
  uint8_t rec[SETTINGS_RECORD_SIZE]; // also holds the 33-byte version-1 record
  uint8_t seq = 0;
  int8_t cur = current_slot(rec, &seq);
  if (cur >= 0) {
    eeprom_read_block(rec, (const void *)(uintptr_t)kSlotAddr[(uint8_t)cur], SETTINGS_RECORD_SIZE);
    if (settings_decode(rec, s, &seq)) return true;
  }
  eeprom_read_block(rec, (const void *)(uintptr_t)SETTINGS_V1_ADDR, SETTINGS_V1_SIZE);
  if (settings_decode_v1(rec, s)) return true; // firmware 0.1.0's record: migrated by the next save
  settings_defaults(s);
  return false;
}

bool settings_save(const Settings &s) {
  uint8_t rec[SETTINGS_RECORD_SIZE];
  uint8_t seq = 0;
  int8_t cur = current_slot(rec, &seq);
  uint8_t slot = cur == 0 ? 1 : 0; // the slot that is not current (A when neither is valid)
  settings_encode(s, (uint8_t)(cur < 0 ? 1 : seq + 1), rec);
  uint16_t addr = kSlotAddr[slot];
  // The CRC goes in last (a call of its own: avr-libc's eeprom_update_block writes from the last byte
  // down). Until it is complete the slot does not decode, so the other slot stays current.
  eeprom_update_block(rec, (void *)(uintptr_t)addr, SETTINGS_RECORD_SIZE - 2);
  eeprom_update_block(rec + SETTINGS_RECORD_SIZE - 2, (void *)(uintptr_t)(addr + SETTINGS_RECORD_SIZE - 2), 2);
  // Read back in small pieces (no second 36-byte buffer on the stack).
  for (uint8_t i = 0; i < SETTINGS_RECORD_SIZE; i += 4) {
    uint8_t back[4];
    eeprom_read_block(back, (const void *)(uintptr_t)(addr + i), 4);
    if (memcmp(back, rec + i, 4) != 0) return false;
  }
  return true;
}
