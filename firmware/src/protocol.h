// The zaptable line protocol codec: framing, CRC-8 checksum, command parsing and line formatting.
//
// Pure code: no Arduino API, no I/O, no globals. It compiles unchanged for the AVR target and for the host
// tests (which check it against test/vectors/protocol-vectors.json, the vectors the TypeScript codec checks
// too). The full protocol is documented in hardware/protocol.md; keep the two in step.
//
// Types are fixed-width on purpose: `int` is 16-bit on AVR and 32-bit on the host.
#ifndef ZT_PROTOCOL_H
#define ZT_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "status_codes.h"

#define PROTO_VERSION 2 // hardware/protocol.md, Changes: TAG± carry their window; SLAP
// Longest line in either direction, counted before the `\n` and including the `*XX` checksum. A host may
// end lines with `\r\n`; that one `\r` is not counted (a second one is a bad character).
#define PROTO_MAX_LINE 96
#define PROTO_MAX_STATION_ID 16 // station ids: 1..16 of [A-Za-z0-9._-]
#define PROTO_MAX_UID 10        // ISO 14443A UIDs are 4, 7 or 10 bytes

// CRC-8/SMBUS: polynomial 0x07, init 0x00, not reflected, no final xor. check("123456789") == 0xF4.
uint8_t proto_crc8(const char *data, size_t len);
// Continue a CRC-8 over more bytes (also used for the EEPROM settings record).
uint8_t proto_crc8_update(uint8_t crc, const uint8_t *data, size_t len);

// Collects bytes into lines. Over-long input is discarded up to the next `\n` and reported once, so a flood
// of garbage can never be executed and costs no more than one buffer.
class LineReader {
public:
  enum Result : uint8_t {
    NONE = 0,    // line not complete yet (or an empty line, which is ignored)
    LINE = 1,    // a line is ready: line() / length() (a trailing `\r` included), valid until the next feed()
    TOO_LONG = 2 // a line longer than PROTO_MAX_LINE ended; it was discarded
  };
  LineReader() : len_(0), overflow_(false), ready_(false) {}
  // Back to the power-on state (in place: no temporary on the stack).
  void reset() {
    len_ = 0;
    overflow_ = false;
    ready_ = false;
  }
  Result feed(uint8_t byte);
  const char *line() const { return buf_; }
  uint8_t length() const { return len_; }

private:
  char buf_[PROTO_MAX_LINE + 2]; // room for the line, a `\r` and a terminating NUL
  uint8_t len_;
  bool overflow_;
  bool ready_;
};

// Checks the frame of a received line (without `\n`): length, characters, `*XX`, CRC.
// On STATUS_OK, *payload_len is the length of the part before the `*`.
uint8_t proto_check_frame(const char *line, size_t len, size_t *payload_len);

enum CommandVerb : uint8_t {
  CMD_PING = 0,    // `ping`                           -> ok <id> t=<t_us>
  CMD_INFO,        // `info`                           -> ok <id> fw= proto= kind= id= boot=
  CMD_LAMP_ON,     // `lamp on`
  CMD_LAMP_OFF,    // `lamp off`
  CMD_LAMP_BLINK,  // `lamp blink <on_ms> <off_ms> <count>`
  CMD_TARE,        // `tare`                           -> ok <id> tare=<raw>
  CMD_CALIBRATE,   // `calibrate <grams>`              -> ok <id> per_kg=<counts>
  CMD_RAW,         // `raw`                            -> ok <id> raw=<counts>
  CMD_SCALE,       // `scale`                          -> ok <id> tare=<raw> per_kg=<counts>
  CMD_ID_SET,      // `id set <station-id>`            -> ok <id> id=<station-id>
  CMD_STREAM_ON,   // `stream on`
  CMD_STREAM_OFF,  // `stream off`
};

// Argument ranges, checked by the parser (STATUS_OUT_OF_RANGE).
#define PROTO_BLINK_MS_MIN 10UL
#define PROTO_BLINK_MS_MAX 60000UL
#define PROTO_BLINK_COUNT_MAX 65535UL
#define PROTO_CAL_GRAMS_MIN 1UL
#define PROTO_CAL_GRAMS_MAX 100000UL
#define PROTO_COMMAND_ID_MAX 65535UL

struct Command {
  bool has_id;  // false when the id itself could not be read: the reply is then `err - <code>`
  uint16_t id;
  uint8_t verb; // CommandVerb
  uint32_t arg[3]; // blink: on_ms, off_ms, count; calibrate: grams
  char station[PROTO_MAX_STATION_ID + 1];
};

// Parses one received command line (without `\n`, a trailing `\r` allowed). Returns STATUS_OK or the error
// code to send back; cmd->has_id/cmd->id say which id the `err` reply carries.
uint8_t proto_parse_command(const char *line, size_t len, Command *cmd);

// Builds one device line in a fixed buffer. Nothing is allocated; the longest line the firmware builds
// fits (the host tests check it). Anything beyond PROTO_MAX_LINE is dropped and marks the line overflowed.
class LineWriter {
public:
  LineWriter() : len_(0), overflow_(false) {}
  void reset() { len_ = 0; overflow_ = false; }
  LineWriter &ch(char c);
  LineWriter &text(const char *s);
  LineWriter &u32(uint32_t v);
  LineWriter &i32(int32_t v);
  LineWriter &hex(const uint8_t *bytes, uint8_t n); // uppercase, two digits a byte
  LineWriter &decigrams(int32_t dg);                // grams with one decimal: -12.3
  LineWriter &field(const char *key, const char *value);  // ` key=value`
  LineWriter &field_u32(const char *key, uint32_t value); // ` key=123`
  LineWriter &field_i32(const char *key, int32_t value);  // ` key=-123`
  // Appends `*XX\n` and returns the finished line; length() then includes the `\n`.
  const char *finish();
  const char *data() const { return buf_; }
  uint8_t length() const { return len_; }
  bool overflowed() const { return overflow_; }

private:
  char buf_[PROTO_MAX_LINE + 2];
  uint8_t len_;
  bool overflow_;
};

// Line starters. Each leaves the writer ready for more fields, then call finish().
void proto_begin_banner(LineWriter &w, const char *fw, uint32_t proto, const char *kind, const char *station,
                        uint32_t boot);
void proto_begin_event(LineWriter &w, uint32_t seq, uint32_t t_us, const char *event); // `E <seq> <t> <event>`
void proto_begin_ok(LineWriter &w, uint16_t id);
void proto_begin_err(LineWriter &w, bool has_id, uint16_t id, uint8_t code);

// True when s (NUL-terminated) is a valid station id.
bool proto_valid_station_id(const char *s, size_t len);

#endif
