#include <stdio.h>

#include <string>
#include <vector>

#include "check.h"

namespace zt_test {

struct Case {
  const char *name;
  TestFn fn;
};

static std::vector<Case> &cases() {
  static std::vector<Case> all;
  return all;
}

static int failures_in_test = 0;
static const char *current = "";

void add(const char *name, TestFn fn) { cases().push_back(Case{name, fn}); }

void fail(const char *file, int line, const std::string &what) {
  failures_in_test++;
  printf("FAIL %s (%s:%d)\n  %s\n", current, file, line, what.c_str());
}

} // namespace zt_test

// Usage: tests [FILTER] runs every test whose name contains FILTER (all of them without one).
int main(int argc, char **argv) {
  std::string only = argc > 1 ? argv[1] : "";
  int passed = 0, failed = 0, selected = 0;
  for (const zt_test::Case &c : zt_test::cases()) {
    if (!only.empty() && std::string(c.name).find(only) == std::string::npos) continue;
    selected++;
    zt_test::current = c.name;
    zt_test::failures_in_test = 0;
    c.fn();
    if (zt_test::failures_in_test == 0) passed++;
    else failed++;
  }
  // A filter that selects nothing is a mistake (a renamed test, a typo in ci.sh), never a pass; the same
  // for a binary with no tests registered at all.
  if (selected == 0) {
    if (only.empty()) printf("FAIL no tests registered\n");
    else printf("FAIL no test name contains \"%s\" (of %d tests); none ran\n", only.c_str(), (int)zt_test::cases().size());
    return 2;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
