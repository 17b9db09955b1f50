// The line protocol codec. See protocol.h and hardware/protocol.md.
#include "protocol.h"

#include <string.h>

// ---------------------------------------------------------------------------------------------- checksum

uint8_t proto_crc8_update(uint8_t crc, const uint8_t *data, size_t len) {
  // Bitwise on purpose: a 256-byte table would cost flash (or RAM, without PROGMEM) for no gain at
  // 115200 baud, where a byte arrives every 87 us and this loop takes ~5 us a byte on a 16 MHz AVR.
  for (size_t i = 0; i < len; i++) {
    crc ^= data[i];
    for (uint8_t bit = 0; bit < 8; bit++) {
      crc = (crc & 0x80) ? (uint8_t)((crc << 1) ^ 0x07) : (uint8_t)(crc << 1);
    }
  }
  return crc;
}

uint8_t proto_crc8(const char *data, size_t len) {
  return proto_crc8_update(0, (const uint8_t *)data, len);
}

static int8_t hex_value(char c) {
  if (c >= '0' && c <= '9') return (int8_t)(c - '0');
  if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
  return -1; // lowercase is not accepted: one spelling per line keeps both codecs byte-exact
}

// ------------------------------------------------------------------------------------------- line reader

LineReader::Result LineReader::feed(uint8_t byte) {
  if (ready_) { // the previous line has been consumed
    ready_ = false;
    len_ = 0;
  }
  if (byte == '\n') {
    if (overflow_) {
      overflow_ = false;
      len_ = 0;
      return TOO_LONG;
    }
    // One `\r` before the `\n` stays in the line: proto_check_frame() drops exactly one, so a second one
    // is a bad character there (never silently accepted).
    bool cr = len_ > 0 && buf_[len_ - 1] == '\r';
    if (len_ - (cr ? 1 : 0) > PROTO_MAX_LINE) { // one byte too many, kept because it might have been a `\r`
      len_ = 0;
      return TOO_LONG;
    }
    buf_[len_] = '\0';
    if (len_ == (cr ? 1 : 0)) { // empty lines are ignored: a host may send `\n` to flush line noise
      len_ = 0;
      return NONE;
    }
    ready_ = true;
    return LINE;
  }
  if (overflow_) return NONE;
  if (len_ >= PROTO_MAX_LINE + 1) {
    overflow_ = true; // discard until the next `\n`
    return NONE;
  }
  buf_[len_++] = (char)byte;
  return NONE;
}

// -------------------------------------------------------------------------------------------- framing

uint8_t proto_check_frame(const char *line, size_t len, size_t *payload_len) {
  if (len > 0 && line[len - 1] == '\r') len--;
  if (len > PROTO_MAX_LINE) return STATUS_LINE_TOO_LONG;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = (uint8_t)line[i];
    if (c < 0x20 || c > 0x7E) return STATUS_BAD_CHARACTER;
  }
  if (len < 3 || line[len - 3] != '*') return STATUS_CHECKSUM_MISSING;
  int8_t hi = hex_value(line[len - 2]);
  int8_t lo = hex_value(line[len - 1]);
  if (hi < 0 || lo < 0) return STATUS_CHECKSUM_MISSING;
  size_t plen = len - 3;
  if (memchr(line, '*', plen) != NULL) return STATUS_BAD_CHARACTER;
  if (proto_crc8(line, plen) != (uint8_t)((hi << 4) | lo)) return STATUS_CHECKSUM_MISMATCH;
  *payload_len = plen;
  return STATUS_OK;
}

// ------------------------------------------------------------------------------------------ tokenising

namespace {

struct Token {
  const char *s;
  uint8_t len;
};

#define MAX_TOKENS 6

// Splits on single spaces. An empty token (leading, trailing or double space) is a syntax error wherever it
// is. Returns the token count (only the first MAX_TOKENS are stored), or -1 on a syntax error.
int8_t split(const char *s, size_t len, Token *tok) {
  int8_t n = 0;
  size_t start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || s[i] == ' ') {
      if (i == start) return -1;
      if (n < MAX_TOKENS) {
        tok[n].s = s + start;
        tok[n].len = (uint8_t)(i - start);
      }
      if (n < 127) n++;
      start = i + 1;
    }
  }
  return n;
}

bool token_is(const Token &t, const char *word) {
  size_t n = strlen(word);
  return t.len == n && memcmp(t.s, word, n) == 0;
}

enum NumberResult : uint8_t { NUM_OK, NUM_MALFORMED, NUM_TOO_BIG };

// Canonical unsigned decimal: `0` or a non-zero digit followed by digits; no sign, no leading zeros.
NumberResult parse_u32(const Token &t, uint32_t *out) {
  if (t.len == 0) return NUM_MALFORMED;
  if (t.s[0] == '0' && t.len > 1) return NUM_MALFORMED;
  uint32_t v = 0;
  bool too_big = false;
  for (uint8_t i = 0; i < t.len; i++) {
    char c = t.s[i];
    if (c < '0' || c > '9') return NUM_MALFORMED;
    uint8_t d = (uint8_t)(c - '0');
    if (v > (UINT32_MAX - d) / 10) too_big = true;
    else v = v * 10 + d;
  }
  if (too_big) return NUM_TOO_BIG;
  *out = v;
  return NUM_OK;
}

// Parses an argument that must lie in [lo, hi]. Returns a status code.
uint8_t arg_u32(const Token &t, uint32_t lo, uint32_t hi, uint32_t *out) {
  NumberResult r = parse_u32(t, out);
  if (r == NUM_MALFORMED) return STATUS_BAD_ARGUMENT;
  if (r == NUM_TOO_BIG || *out < lo || *out > hi) return STATUS_OUT_OF_RANGE;
  return STATUS_OK;
}

} // namespace

bool proto_valid_station_id(const char *s, size_t len) {
  if (len < 1 || len > PROTO_MAX_STATION_ID) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

uint8_t proto_parse_command(const char *line, size_t len, Command *cmd) {
  memset(cmd, 0, sizeof(*cmd));
  size_t plen = 0;
  uint8_t st = proto_check_frame(line, len, &plen);
  if (st != STATUS_OK) return st;

  Token tok[MAX_TOKENS];
  int8_t n = split(line, plen, tok);
  if (n < 0) return STATUS_BAD_SYNTAX;
  // The id comes first. Only a canonical id is echoed back; anything else is answered with `err -`.
  uint32_t id = 0;
  if (parse_u32(tok[0], &id) != NUM_OK || id > PROTO_COMMAND_ID_MAX) return STATUS_BAD_SYNTAX;
  cmd->has_id = true;
  cmd->id = (uint16_t)id;
  if (n < 2) return STATUS_BAD_SYNTAX;
  const Token &verb = tok[1];
  const Token *args = tok + 2;
  // The verb is looked up before the arguments are counted (protocol.md, Checks and their order): an
  // unknown verb with many arguments is UNKNOWN_KEYWORD. No command takes more than MAX_TOKENS - 2
  // arguments, so beyond that only the verb was stored and the count alone makes BAD_ARGUMENT.
  if (!token_is(verb, "ping") && !token_is(verb, "info") && !token_is(verb, "tare") && !token_is(verb, "raw") &&
      !token_is(verb, "scale") && !token_is(verb, "lamp") && !token_is(verb, "calibrate") && !token_is(verb, "id") &&
      !token_is(verb, "stream")) {
    return STATUS_UNKNOWN_KEYWORD;
  }
  if (n > MAX_TOKENS) return STATUS_BAD_ARGUMENT;
  uint8_t nargs = (uint8_t)(n - 2);

  if (token_is(verb, "ping") || token_is(verb, "info") || token_is(verb, "tare") || token_is(verb, "raw") ||
      token_is(verb, "scale")) {
    if (nargs != 0) return STATUS_BAD_ARGUMENT;
    cmd->verb = token_is(verb, "ping")   ? CMD_PING
                : token_is(verb, "info") ? CMD_INFO
                : token_is(verb, "tare") ? CMD_TARE
                : token_is(verb, "raw")  ? CMD_RAW
                                         : CMD_SCALE;
    return STATUS_OK;
  }
  if (token_is(verb, "lamp")) {
    if (nargs == 1 && token_is(args[0], "on")) {
      cmd->verb = CMD_LAMP_ON;
      return STATUS_OK;
    }
    if (nargs == 1 && token_is(args[0], "off")) {
      cmd->verb = CMD_LAMP_OFF;
      return STATUS_OK;
    }
    if (nargs == 4 && token_is(args[0], "blink")) {
      cmd->verb = CMD_LAMP_BLINK;
      // Report a malformed argument before an out-of-range one, whatever their order.
      uint8_t worst = STATUS_OK;
      static const uint32_t lo[3] = {PROTO_BLINK_MS_MIN, PROTO_BLINK_MS_MIN, 0};
      static const uint32_t hi[3] = {PROTO_BLINK_MS_MAX, PROTO_BLINK_MS_MAX, PROTO_BLINK_COUNT_MAX};
      for (uint8_t i = 0; i < 3; i++) {
        uint8_t r = arg_u32(args[1 + i], lo[i], hi[i], &cmd->arg[i]);
        if (r == STATUS_BAD_ARGUMENT) return r;
        if (r != STATUS_OK) worst = r;
      }
      return worst;
    }
    return STATUS_BAD_ARGUMENT;
  }
  if (token_is(verb, "calibrate")) {
    if (nargs != 1) return STATUS_BAD_ARGUMENT;
    cmd->verb = CMD_CALIBRATE;
    return arg_u32(args[0], PROTO_CAL_GRAMS_MIN, PROTO_CAL_GRAMS_MAX, &cmd->arg[0]);
  }
  if (token_is(verb, "id")) {
    if (nargs != 2 || !token_is(args[0], "set") || !proto_valid_station_id(args[1].s, args[1].len)) {
      return STATUS_BAD_ARGUMENT;
    }
    cmd->verb = CMD_ID_SET;
    memcpy(cmd->station, args[1].s, args[1].len);
    cmd->station[args[1].len] = '\0';
    return STATUS_OK;
  }
  if (token_is(verb, "stream")) {
    if (nargs == 1 && token_is(args[0], "on")) {
      cmd->verb = CMD_STREAM_ON;
      return STATUS_OK;
    }
    if (nargs == 1 && token_is(args[0], "off")) {
      cmd->verb = CMD_STREAM_OFF;
      return STATUS_OK;
    }
    return STATUS_BAD_ARGUMENT;
  }
  return STATUS_UNKNOWN_KEYWORD; // not reached: every verb above was checked first
}

// ------------------------------------------------------------------------------------------ line writer

LineWriter &LineWriter::ch(char c) {
  // Keep room for `*XX`: the checksum is always written, so a too-long line is visibly truncated and
  // flagged rather than unframed.
  if (len_ < PROTO_MAX_LINE - 3) buf_[len_++] = c;
  else overflow_ = true;
  return *this;
}

LineWriter &LineWriter::text(const char *s) {
  while (*s) ch(*s++);
  return *this;
}

LineWriter &LineWriter::u32(uint32_t v) {
  char digits[10];
  uint8_t n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) ch(digits[--n]);
  return *this;
}

LineWriter &LineWriter::i32(int32_t v) {
  if (v < 0) {
    ch('-');
    return u32((uint32_t)0 - (uint32_t)v); // well defined for INT32_MIN too
  }
  return u32((uint32_t)v);
}

LineWriter &LineWriter::hex(const uint8_t *bytes, uint8_t n) {
  static const char digits[] = "0123456789ABCDEF";
  for (uint8_t i = 0; i < n; i++) {
    ch(digits[bytes[i] >> 4]);
    ch(digits[bytes[i] & 0x0F]);
  }
  return *this;
}

LineWriter &LineWriter::decigrams(int32_t dg) {
  uint32_t mag = dg < 0 ? (uint32_t)0 - (uint32_t)dg : (uint32_t)dg;
  if (dg < 0) ch('-');
  u32(mag / 10);
  ch('.');
  ch((char)('0' + mag % 10));
  return *this;
}

LineWriter &LineWriter::field(const char *key, const char *value) {
  return ch(' ').text(key).ch('=').text(value);
}

LineWriter &LineWriter::field_u32(const char *key, uint32_t value) {
  return ch(' ').text(key).ch('=').u32(value);
}

LineWriter &LineWriter::field_i32(const char *key, int32_t value) {
  return ch(' ').text(key).ch('=').i32(value);
}

const char *LineWriter::finish() {
  static const char digits[] = "0123456789ABCDEF";
  uint8_t crc = proto_crc8(buf_, len_);
  buf_[len_++] = '*';
  buf_[len_++] = digits[crc >> 4];
  buf_[len_++] = digits[crc & 0x0F];
  buf_[len_++] = '\n';
  buf_[len_] = '\0';
  return buf_;
}

void proto_begin_banner(LineWriter &w, const char *fw, uint32_t proto, const char *kind, const char *station,
                        uint32_t boot) {
  w.reset();
  w.text("ZT ").text(fw).field_u32("proto", proto).field("kind", kind).field("id", station);
  w.field_u32("boot", boot);
}

void proto_begin_event(LineWriter &w, uint32_t seq, uint32_t t_us, const char *event) {
  w.reset();
  w.text("E ").u32(seq).ch(' ').u32(t_us).ch(' ').text(event);
}

void proto_begin_ok(LineWriter &w, uint16_t id) {
  w.reset();
  w.text("ok ").u32(id);
}

void proto_begin_err(LineWriter &w, bool has_id, uint16_t id, uint8_t code) {
  w.reset();
  w.text("err ");
  if (has_id) w.u32(id);
  else w.ch('-');
  w.ch(' ').u32(code);
}
