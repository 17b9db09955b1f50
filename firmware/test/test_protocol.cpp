// The C++ codec against the shared vectors (test/vectors/protocol-vectors.json), which the TypeScript
// codec is checked against too, plus the line reader and writer edge cases.
#include <string.h>

#include <map>
#include <string>

#include "check.h"
#include "json.h"
#include "protocol.h"

namespace {

const json::Value &vectors() {
  static json::Value v = json::parse_file(repo_path("test/vectors/protocol-vectors.json"));
  return v;
}

const std::map<std::string, int> &code_table() {
  static const std::map<std::string, int> t = {
      {"LINE_TOO_LONG", STATUS_LINE_TOO_LONG},       {"BAD_CHARACTER", STATUS_BAD_CHARACTER},
      {"CHECKSUM_MISSING", STATUS_CHECKSUM_MISSING}, {"CHECKSUM_MISMATCH", STATUS_CHECKSUM_MISMATCH},
      {"BAD_SYNTAX", STATUS_BAD_SYNTAX},             {"UNKNOWN_KEYWORD", STATUS_UNKNOWN_KEYWORD},
      {"BAD_ARGUMENT", STATUS_BAD_ARGUMENT},         {"OUT_OF_RANGE", STATUS_OUT_OF_RANGE},
      {"NOT_SUPPORTED", STATUS_NOT_SUPPORTED},       {"SENSOR_TIMEOUT", STATUS_SENSOR_TIMEOUT},
      {"CALIBRATION_FAILED", STATUS_CALIBRATION_FAILED}, {"EEPROM_FAILED", STATUS_EEPROM_FAILED},
  };
  return t;
}

std::string strip_cr(const std::string &s) {
  return !s.empty() && s.back() == '\r' ? s.substr(0, s.size() - 1) : s;
}

std::string written(LineWriter &w) {
  std::string s = w.finish();
  return s.substr(0, s.size() - 1); // without '\n'
}

uint8_t hex_nibble(char c) { return (uint8_t)(c <= '9' ? c - '0' : c - 'A' + 10); }

// Formats a decoded device message (JSON) with the firmware's writer.
std::string format_device(const json::Value &m) {
  LineWriter w;
  const std::string type = m["type"].s;
  if (type == "banner") {
    proto_begin_banner(w, m["fw"].s.c_str(), (uint32_t)m["proto"].n, m["kind"].s.c_str(), m["station"].s.c_str(),
                       (uint32_t)m["boot"].n);
  } else if (type == "event") {
    const std::string ev = m["event"].s;
    proto_begin_event(w, (uint32_t)m["seq"].n, (uint32_t)m["t"].n, ev.c_str());
    if (ev == "TAG+" || ev == "TAG-") {
      const std::string &hex = m["uid"].s;
      uint8_t bytes[PROTO_MAX_UID];
      for (size_t i = 0; i < hex.size() / 2; i++) bytes[i] = (uint8_t)(hex_nibble(hex[2 * i]) << 4 | hex_nibble(hex[2 * i + 1]));
      w.ch(' ').hex(bytes, (uint8_t)(hex.size() / 2));
      CHECK(m.has("windowUs")); // protocol 2: every TAG line this firmware sends carries its window
      w.ch(' ').u32((uint32_t)m["windowUs"].n);
    } else if (ev == "W") {
      double g = m["grams"].n * 10;
      w.ch(' ').decigrams((int32_t)(g < 0 ? g - 0.5 : g + 0.5)).ch(' ').ch(m["stable"].b ? 'S' : 'U');
    } else if (ev == "FAULT+" || ev == "FAULT-") {
      w.ch(' ').text(m["device"].s.c_str());
    }
  } else if (type == "ok") {
    proto_begin_ok(w, (uint16_t)m["id"].n);
    for (const auto &f : m["fields"].members) w.field(f.first.c_str(), f.second.s.c_str());
  } else if (type == "err") {
    bool has_id = m["id"].kind != json::Value::NUL;
    proto_begin_err(w, has_id, has_id ? (uint16_t)m["id"].n : 0, (uint8_t)m["code"].n);
  }
  CHECK(!w.overflowed());
  return written(w);
}

const std::map<std::string, int> &verb_table() {
  static const std::map<std::string, int> t = {
      {"ping", CMD_PING},         {"info", CMD_INFO},           {"lamp-on", CMD_LAMP_ON},
      {"lamp-off", CMD_LAMP_OFF}, {"lamp-blink", CMD_LAMP_BLINK}, {"tare", CMD_TARE},
      {"calibrate", CMD_CALIBRATE}, {"raw", CMD_RAW},           {"scale", CMD_SCALE},
      {"id-set", CMD_ID_SET},     {"stream-on", CMD_STREAM_ON}, {"stream-off", CMD_STREAM_OFF},
  };
  return t;
}

// Feeds a line and its '\n' through a LineReader, as the station does byte by byte.
LineReader::Result read_line(LineReader &r, const std::string &line) {
  LineReader::Result res = LineReader::NONE;
  for (char c : line + "\n") res = r.feed((uint8_t)c);
  return res;
}

} // namespace

TEST(protocol_codes_match_vectors) {
  const json::Value &codes = vectors()["codes"];
  CHECK_EQ(codes.size(), code_table().size());
  for (const auto &m : codes.members) CHECK_EQ(code_table().at(m.first), (int)m.second.n);
  CHECK_EQ((int)vectors()["protocol"].n, PROTO_VERSION);
  CHECK_EQ((int)vectors()["maxLine"].n, PROTO_MAX_LINE);
}

TEST(protocol_crc8_vectors) {
  for (const json::Value &v : vectors()["crc8"].items) {
    CHECK_EQ((int)proto_crc8(v["input"].s.data(), v["input"].s.size()), (int)std::stoul(v["crc"].s, nullptr, 16));
  }
}

TEST(protocol_device_lines_format_exactly) {
  // Every device line except those of an older protocol that hosts still decode but this firmware never
  // sends (`decodeOnly`, e.g. protocol 1's TAG without its window).
  int formatted = 0, skipped = 0;
  for (const json::Value &v : vectors()["device"].items) {
    if (v.has("decodeOnly")) {
      skipped++;
      continue;
    }
    formatted++;
    CHECK_EQ(format_device(v["message"]), strip_cr(v["line"].s));
  }
  CHECK(formatted >= 20);
  CHECK(skipped >= 1);
}

TEST(protocol_device_invalid_frames_rejected) {
  // The device never parses device lines, but it shares the frame check: every vector whose fault is a
  // framing fault (codes 1..4) must be caught by proto_check_frame with the same code.
  int framing = 0;
  for (const json::Value &v : vectors()["deviceInvalid"].items) {
    int want = code_table().at(v["error"].s);
    size_t plen = 0;
    uint8_t got = proto_check_frame(v["line"].s.data(), v["line"].s.size(), &plen);
    if (want <= STATUS_CHECKSUM_MISMATCH) {
      framing++;
      CHECK_EQ((int)got, want);
    } else {
      CHECK_EQ((int)got, STATUS_OK);
    }
  }
  CHECK(framing >= 10);
}

TEST(protocol_commands_parse) {
  for (const json::Value &v : vectors()["commands"].items) {
    const std::string &line = v["line"].s;
    const json::Value &want = v["command"];
    Command cmd;
    uint8_t st = proto_parse_command(line.data(), line.size(), &cmd);
    CHECK_EQ((int)st, STATUS_OK);
    CHECK(cmd.has_id);
    CHECK_EQ((int)cmd.id, (int)want["id"].n);
    CHECK_EQ((int)cmd.verb, verb_table().at(want["verb"].s));
    if (want.has("onMs")) {
      CHECK_EQ(cmd.arg[0], (uint32_t)want["onMs"].n);
      CHECK_EQ(cmd.arg[1], (uint32_t)want["offMs"].n);
      CHECK_EQ(cmd.arg[2], (uint32_t)want["count"].n);
    }
    if (want.has("grams")) CHECK_EQ(cmd.arg[0], (uint32_t)want["grams"].n);
    if (want.has("station")) CHECK_EQ(std::string(cmd.station), want["station"].s);

    LineReader r;
    CHECK_EQ((int)read_line(r, line), (int)LineReader::LINE);
    CHECK_EQ((int)proto_parse_command(r.line(), r.length(), &cmd), STATUS_OK);
  }
}

TEST(protocol_invalid_commands_get_the_exact_reply) {
  for (const json::Value &v : vectors()["commandsInvalid"].items) {
    const std::string &line = v["line"].s;
    int want = code_table().at(v["error"].s);
    Command cmd;
    uint8_t st = proto_parse_command(line.data(), line.size(), &cmd);
    CHECK_EQ((int)st, want);
    LineWriter w;
    proto_begin_err(w, cmd.has_id, cmd.id, st);
    CHECK_EQ(written(w), v["reply"].s);

    // Through the line reader: an over-long line never reaches the parser.
    LineReader r;
    LineReader::Result res = read_line(r, line);
    if (want == STATUS_LINE_TOO_LONG) {
      CHECK_EQ((int)res, (int)LineReader::TOO_LONG);
    } else {
      CHECK_EQ((int)res, (int)LineReader::LINE);
      CHECK_EQ((int)proto_parse_command(r.line(), r.length(), &cmd), want);
    }
  }
}

TEST(line_reader_boundaries) {
  LineReader r;
  std::string ok96(96, 'a');
  CHECK_EQ((int)read_line(r, ok96), (int)LineReader::LINE);
  CHECK_EQ((int)r.length(), 96);
  CHECK_EQ((int)read_line(r, ok96 + "\r"), (int)LineReader::LINE); // CR not counted, but kept for the parser
  CHECK_EQ((int)r.length(), 97);
  CHECK_EQ((int)read_line(r, ok96 + "\r\r"), (int)LineReader::TOO_LONG);
  // One CR is dropped by the frame check, a second one is a bad character (never executed).
  CHECK_EQ((int)read_line(r, "7 ping*C2\r"), (int)LineReader::LINE);
  Command cmd;
  CHECK_EQ((int)proto_parse_command(r.line(), r.length(), &cmd), STATUS_OK);
  CHECK_EQ((int)read_line(r, "7 ping*C2\r\r"), (int)LineReader::LINE);
  CHECK_EQ((int)proto_parse_command(r.line(), r.length(), &cmd), STATUS_BAD_CHARACTER);
  CHECK_EQ((int)read_line(r, ok96 + "b"), (int)LineReader::TOO_LONG);
  CHECK_EQ((int)read_line(r, ok96 + "bc"), (int)LineReader::TOO_LONG);
  // A flood far beyond the buffer is one error, and the next line is read normally.
  CHECK_EQ((int)read_line(r, std::string(5000, 'x')), (int)LineReader::TOO_LONG);
  CHECK_EQ((int)read_line(r, "7 ping*C2"), (int)LineReader::LINE);
  CHECK_EQ(std::string(r.line()), std::string("7 ping*C2"));
  // Empty lines (also a lone CR) are ignored.
  CHECK_EQ((int)r.feed('\n'), (int)LineReader::NONE);
  CHECK_EQ((int)read_line(r, "\r"), (int)LineReader::NONE);
}

TEST(line_writer_numbers) {
  LineWriter w;
  w.u32(0).ch(' ').u32(4294967295UL).ch(' ').i32(INT32_MIN).ch(' ').i32(-1).ch(' ').decigrams(-5).ch(' ');
  w.decigrams(INT32_MIN).ch(' ').decigrams(7);
  std::string line = written(w);
  CHECK_EQ(line.substr(0, line.size() - 3), std::string("0 4294967295 -2147483648 -1 -0.5 -214748364.8 0.7"));
}

TEST(line_writer_never_exceeds_the_line_limit) {
  LineWriter w;
  for (int i = 0; i < 200; i++) w.ch('x');
  CHECK(w.overflowed());
  std::string s = w.finish();
  CHECK_EQ(s.size(), (size_t)PROTO_MAX_LINE + 1); // 96 + '\n'
  size_t plen = 0;
  CHECK_EQ((int)proto_check_frame(s.data(), s.size() - 1, &plen), STATUS_OK);
}

TEST(longest_replies_fit) {
  // The longest lines the firmware builds, with every field at its widest.
  LineWriter w;
  proto_begin_banner(w, "255.255.255", PROTO_VERSION, "seat", "abcdefghijklmnop", 4294967295UL);
  CHECK(!w.overflowed());
  proto_begin_ok(w, 65535);
  w.field("fw", "255.255.255").field_u32("proto", PROTO_VERSION).field("kind", "seat").field("id", "abcdefghijklmnop");
  w.field_u32("boot", 4294967295UL);
  CHECK(!w.overflowed());
  proto_begin_event(w, 4294967295UL, 4294967295UL, "TAG+");
  uint8_t uid[10] = {0};
  w.ch(' ').hex(uid, 10).ch(' ').u32(4294967295UL);
  CHECK(!w.overflowed());
  proto_begin_ok(w, 65535);
  w.field_i32("tare", INT32_MIN).field_i32("per_kg", INT32_MIN);
  CHECK(!w.overflowed());
}
