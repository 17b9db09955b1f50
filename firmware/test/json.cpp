#include "json.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace json {

bool Value::has(const std::string &key) const {
  for (const auto &m : members) {
    if (m.first == key) return true;
  }
  return false;
}

const Value &Value::operator[](const std::string &key) const {
  for (const auto &m : members) {
    if (m.first == key) return m.second;
  }
  throw std::runtime_error("json: missing key " + key);
}

namespace {

struct Parser {
  const std::string &t;
  size_t i = 0;

  [[noreturn]] void bad(const char *what) {
    throw std::runtime_error(std::string("json: ") + what + " at " + std::to_string(i));
  }
  void ws() {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\n' || t[i] == '\r' || t[i] == '\t')) i++;
  }
  bool eat(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (t.compare(i, n, word) != 0) return false;
    i += n;
    return true;
  }
  static void utf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += (char)cp;
    } else if (cp < 0x800) {
      out += (char)(0xC0 | (cp >> 6));
      out += (char)(0x80 | (cp & 0x3F));
    } else {
      out += (char)(0xE0 | (cp >> 12));
      out += (char)(0x80 | ((cp >> 6) & 0x3F));
      out += (char)(0x80 | (cp & 0x3F));
    }
  }
  std::string str() {
    if (t[i] != '"') bad("expected string");
    i++;
    std::string out;
    while (i < t.size() && t[i] != '"') {
      char c = t[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= t.size()) bad("bad escape");
      char e = t[i++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        if (i + 4 > t.size()) bad("bad \\u");
        unsigned cp = (unsigned)std::stoul(t.substr(i, 4), nullptr, 16);
        i += 4;
        utf8(out, cp);
        break;
      }
      default: bad("bad escape");
      }
    }
    if (i >= t.size()) bad("unterminated string");
    i++;
    return out;
  }
  Value value() {
    ws();
    if (i >= t.size()) bad("unexpected end");
    Value v;
    char c = t[i];
    if (c == '{') {
      v.kind = Value::OBJECT;
      i++;
      ws();
      if (t[i] == '}') {
        i++;
        return v;
      }
      for (;;) {
        ws();
        std::string k = str();
        ws();
        if (t[i++] != ':') bad("expected :");
        v.members.emplace_back(k, value());
        ws();
        if (t[i] == ',') {
          i++;
          continue;
        }
        if (t[i++] != '}') bad("expected }");
        return v;
      }
    }
    if (c == '[') {
      v.kind = Value::ARRAY;
      i++;
      ws();
      if (t[i] == ']') {
        i++;
        return v;
      }
      for (;;) {
        v.items.push_back(value());
        ws();
        if (t[i] == ',') {
          i++;
          continue;
        }
        if (t[i++] != ']') bad("expected ]");
        return v;
      }
    }
    if (c == '"') {
      v.kind = Value::STRING;
      v.s = str();
      return v;
    }
    if (eat("true")) {
      v.kind = Value::BOOL;
      v.b = true;
      return v;
    }
    if (eat("false")) {
      v.kind = Value::BOOL;
      return v;
    }
    if (eat("null")) return v;
    size_t used = 0;
    v.kind = Value::NUMBER;
    v.n = std::stod(t.substr(i, 40), &used);
    if (used == 0) bad("bad value");
    i += used;
    return v;
  }
};

} // namespace

Value parse(const std::string &text) {
  Parser p{text};
  Value v = p.value();
  p.ws();
  if (p.i != text.size()) p.bad("trailing data");
  return v;
}

Value parse_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("json: cannot open " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return parse(ss.str());
}

} // namespace json
