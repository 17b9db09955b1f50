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

int main(int argc, char **argv) {
  std::string only = argc > 1 ? argv[1] : "";
  int passed = 0, failed = 0;
  for (const zt_test::Case &c : zt_test::cases()) {
    if (!only.empty() && std::string(c.name).find(only) == std::string::npos) continue;
    zt_test::current = c.name;
    zt_test::failures_in_test = 0;
    c.fn();
    if (zt_test::failures_in_test == 0) passed++;
    else failed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
