// hardware/pin-table.md and firmware/src/pins.h must describe the same wiring.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "pins.h"

namespace {

struct Row {
  int uno;
  int mega;
  std::string stations;
};

std::map<std::string, Row> from_header() {
  std::map<std::string, Row> rows;
#define ZT_ROW(name, uno, mega, st) rows[#name] = Row{uno, mega, st == ZT_SEAT ? "seat" : "seat, pile"};
  ZT_PIN_TABLE(ZT_ROW)
#undef ZT_ROW
  return rows;
}

std::vector<std::string> cells(const std::string &line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  std::getline(ss, cell, '|'); // before the first bar
  while (std::getline(ss, cell, '|')) {
    size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
    out.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
  }
  return out;
}

int digital_pin(const std::string &s) { return s.size() >= 2 && s[0] == 'D' ? std::stoi(s.substr(1)) : -1; }

} // namespace

TEST(pin_table_matches_pins_h) {
  std::ifstream f(repo_path("hardware/pin-table.md"));
  CHECK(f.good());
  std::map<std::string, Row> doc;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> c = cells(line);
    if (c.size() < 4) continue;
    std::string name = c[0].substr(1, c[0].size() - 2);
    doc[name] = Row{digital_pin(c[1]), digital_pin(c[2]), c[3]};
  }
  std::map<std::string, Row> code = from_header();
  CHECK_EQ(doc.size(), code.size());
  for (const auto &kv : code) {
    CHECK(doc.count(kv.first) == 1);
    if (doc.count(kv.first) == 0) continue;
    const Row &d = doc[kv.first];
    CHECK_EQ(d.uno, kv.second.uno);
    CHECK_EQ(d.mega, kv.second.mega);
    CHECK_EQ(d.stations, kv.second.stations);
  }
}
