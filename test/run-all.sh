#!/usr/bin/env bash
# The README's test command: installs what the tests need on a fresh machine, then runs every test.
# Prints one line per step ("<step>: N passed, N failed, N skipped") and closes with one line
# "N passed, N failed, N skipped" counting every test of every suite (skipped includes vitest's todo tests).
#
# It fails closed: a step whose results cannot be counted (no report, an unparsable or partial report, a
# count that is not a number, no summary line, a non-zero exit with no failure counted, a missing step) is
# a failure, never "0 failed". The counting is test/tools/count-results.js (tested in test/tools/).
#
# ZAPTABLE_SKIP_INSTALL=1 skips installing (apt-get, npm ci) and only rebuilds dist/: for development in a
# git worktree whose node_modules is shared with another checkout. Never set it on CI or a fresh machine.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
skipped=0
step() { printf '\n=== %s ===\n' "$*"; }
fail_step() { echo "FAILED: $*"; failed=$((failed + 1)); }
closing() { echo; echo "$passed passed, $failed failed, $skipped skipped"; }
# add_counts NAME "P F S T": adds a counter's line (test/tools/count-results.js) to the totals.
add_counts() {
  if [[ "$2" =~ ^([0-9]+)\ ([0-9]+)\ ([0-9]+)\ ([0-9]+)$ ]]; then
    local p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]} t=${BASH_REMATCH[4]}
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s + t))
    if [ "$t" -gt 0 ]; then echo "$1: $p passed, $f failed, $((s + t)) skipped ($t todo)"
    else echo "$1: $p passed, $f failed, $s skipped"; fi
  else
    fail_step "$1: its results could not be counted (counter printed '$2')"
  fi
}
# add_exit NAME RC: a step without tests of its own counts as one check.
add_exit() {
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "$1: 1 passed, 0 failed, 0 skipped"
  else fail_step "$1 exited $2"; fi
}

# Reports and artefacts of an earlier run must never be read as this run's (test-results/ is git-ignored).
rm -rf test-results
mkdir -p test-results

if [ "${ZAPTABLE_SKIP_INSTALL:-}" = 1 ]; then
  step "installing skipped (ZAPTABLE_SKIP_INSTALL=1): building dist/ only"
  if ! node tools/build.mjs; then echo "the build failed"; passed=0; failed=1; closing; exit 1; fi
else
  step "Debian packages the tests need"
  # mosquitto: a real MQTT broker for the contract tests; chromium: the browser for the dashboard tests.
  # (The AVR toolchain is installed by firmware/ci.sh.) Installed only when missing.
  missing=()
  command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
  command -v chromium >/dev/null || missing+=(chromium)
  if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || { echo "could not install: ${missing[*]}"; failed=1; closing; exit 1; }
  fi
  echo "mosquitto: $(command -v mosquitto || echo /usr/sbin/mosquitto), chromium: $(command -v chromium)"

  step "npm packages"
  if ! npm ci --no-audit --no-fund; then
    echo "npm ci failed"; failed=1; closing; exit 1
  fi
fi

# Before vitest: the firmware-in-the-loop tests run the .hex this step builds.
step "firmware: host tests, AVR builds, size budget"
if [ -f firmware/ci.sh ]; then
  fw_out=$(bash firmware/ci.sh 2>&1)
  fw_rc=$?
  echo "$fw_out"
  # Each host-test binary prints its own "N passed, N failed" line: all of them are added up (at least one
  # must be there), plus one check for the rest of ci.sh (AVR builds, size budget) when it exited 0.
  add_counts "firmware host tests" "$(echo "$fw_out" | node test/tools/count-results.js summary "$fw_rc")"
  if [ "$fw_rc" -eq 0 ]; then add_exit "firmware AVR builds and size budget" 0; fi
else
  fail_step "firmware/ci.sh is missing"
fi

step "typecheck (tsc --noEmit)"
npm run --silent typecheck
add_exit "typecheck" $?

step "lint and format (eslint, warnings are errors)"
npm run --silent lint
add_exit "lint" $?

step "unit, property, scenario and integration tests (vitest)"
# The rule scenario files (test/scenarios/*/) are counted here only: one vitest test per file
# (test/rules/*/scenarios.test.ts, naming each failing case), and `zaptable scenario` over the same folders
# is a test of the CLI (test/cli/cli.test.ts). There is no separate `zaptable scenario` step any more: it
# ran the same files a second time and added each of their cases to the total again.
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_rc=$?
add_counts "vitest" "$(node test/tools/count-results.js vitest test-results/vitest.json "$vitest_rc")"

step "hardware documentation consistency (pins, diagrams, links, checksums)"
hw_out=$(node hardware/check-docs.mjs 2>&1)
hw_rc=$?
echo "$hw_out" | grep -v '^ok ' || true
add_counts "hardware docs" "$(echo "$hw_out" | node test/tools/count-results.js summary "$hw_rc" --last)"

closing
[ "$failed" -eq 0 ]
