// A minimal JSON reader for the shared test vectors (host tests only; never on the device).
// Supports objects, arrays, strings (with \uXXXX escapes, written out as UTF-8), numbers, true/false/null.
#ifndef ZT_JSON_H
#define ZT_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace json {

struct Value {
  enum Kind { NUL, BOOL, NUMBER, STRING, ARRAY, OBJECT } kind = NUL;
  bool b = false;
  double n = 0;
  std::string s;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> members; // in file order

  bool has(const std::string &key) const;
  const Value &operator[](const std::string &key) const; // throws std::runtime_error if missing
  const Value &at(size_t i) const { return items.at(i); }
  size_t size() const { return kind == ARRAY ? items.size() : members.size(); }
};

Value parse(const std::string &text); // throws std::runtime_error on bad input
Value parse_file(const std::string &path);

} // namespace json

#endif
