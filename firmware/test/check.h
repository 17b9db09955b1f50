// A tiny test harness: TEST(name) { CHECK(...); CHECK_EQ(a, b); }. The runner prints every failure and,
// as its last line, "N passed, N failed" (counted per test), which CI reads. Exit status 1 on a failure.
#ifndef ZT_CHECK_H
#define ZT_CHECK_H

#include <sstream>
#include <string>

namespace zt_test {

typedef void (*TestFn)();
void add(const char *name, TestFn fn);
void fail(const char *file, int line, const std::string &what);

struct Registrar {
  Registrar(const char *name, TestFn fn) { add(name, fn); }
};

template <typename A, typename B>
void check_eq(const A &a, const B &b, const char *ea, const char *eb, const char *file, int line) {
  if (a == b) return;
  std::ostringstream s;
  s << ea << " == " << eb << "\n      got: " << a << "\n expected: " << b;
  fail(file, line, s.str());
}

} // namespace zt_test

#define TEST(name)                                                     \
  static void name();                                                  \
  static zt_test::Registrar registrar_##name(#name, name);             \
  static void name()

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) zt_test::fail(__FILE__, __LINE__, #cond);             \
  } while (0)

#define CHECK_EQ(a, b) zt_test::check_eq((a), (b), #a, #b, __FILE__, __LINE__)

// Path of a file in the repository (ZT_REPO_ROOT is set by the Makefile).
inline std::string repo_path(const std::string &rel) { return std::string(ZT_REPO_ROOT) + "/" + rel; }

#endif
