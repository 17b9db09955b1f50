#!/usr/bin/env bash
# The README's test command: installs what the tests need on a fresh machine, then runs every test.
# Prints one closing line "N passed, N failed" counting every test of every suite.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
step() { printf '\n=== %s ===\n' "$*"; }
fail_step() { echo "FAILED: $*"; failed=$((failed + 1)); }

step "Debian packages the tests need"
# mosquitto: a real MQTT broker for the contract tests; chromium: the browser for the dashboard tests.
# (The AVR toolchain is installed by firmware/ci.sh.) Installed only when missing.
missing=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
command -v chromium >/dev/null || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { echo "could not install: ${missing[*]}"; echo "0 passed, 1 failed"; exit 1; }
fi
echo "mosquitto: $(command -v mosquitto || echo /usr/sbin/mosquitto), chromium: $(command -v chromium)"

step "npm packages"
if ! npm ci --no-audit --no-fund; then
  echo "npm ci failed"; echo "0 passed, 1 failed"; exit 1
fi

if [ -f firmware/ci.sh ]; then
  # Before vitest: the firmware-in-the-loop tests run the .hex this step builds.
  step "firmware: host tests, AVR builds, size budget"
  fw_out=$(bash firmware/ci.sh 2>&1)
  fw_rc=$?
  echo "$fw_out"
  # Each host-test binary prints its own "N passed, N failed" line: add them all up.
  while read -r fp ff; do passed=$((passed + fp)); failed=$((failed + ff)); done < <(
    echo "$fw_out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
  if [ "$fw_rc" -eq 0 ]; then passed=$((passed + 1)); else fail_step "firmware/ci.sh exited $fw_rc"; fi
fi

step "typecheck (tsc --noEmit)"
if npm run --silent typecheck; then passed=$((passed + 1)); else fail_step "typecheck"; fi

step "lint and format (eslint, warnings are errors)"
if npm run --silent lint; then passed=$((passed + 1)); else fail_step "lint"; fi

step "unit, property and integration tests (vitest)"
mkdir -p test-results
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_rc=$?
if [ -f test-results/vitest.json ]; then
  read -r vp vf < <(node -e '
    const r = JSON.parse(require("fs").readFileSync("test-results/vitest.json", "utf8"));
    const failedFiles = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    console.log(r.numPassedTests, r.numFailedTests + failedFiles);')
  passed=$((passed + vp)); failed=$((failed + vf))
  if [ "$vitest_rc" -ne 0 ] && [ "$vf" -eq 0 ]; then fail_step "vitest exited $vitest_rc"; fi
else
  fail_step "vitest produced no report"
fi

step "rule scenarios (zaptable scenario)"
scenario_out=$(node bin/zaptable.mjs scenario --quiet test/scenarios/zip-zap test/scenarios/zapp-zerapp 2>&1)
scenario_rc=$?
echo "$scenario_out"
read -r sp sf < <(echo "$scenario_out" | tail -n 1 | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
if [[ "$sp" =~ ^[0-9]+$ && "$sf" =~ ^[0-9]+$ ]]; then
  passed=$((passed + sp)); failed=$((failed + sf))
  if [ "$scenario_rc" -ne 0 ] && [ "$sf" -eq 0 ]; then fail_step "zaptable scenario exited $scenario_rc"; fi
else
  fail_step "zaptable scenario printed no summary"
fi

step "hardware documentation consistency (pins, diagrams, links, checksums)"
hw_out=$(node hardware/check-docs.mjs 2>&1)
hw_rc=$?
echo "$hw_out" | grep -v '^ok ' || true
read -r hp hf < <(echo "$hw_out" | tail -n 1 | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/')
if [[ "${hp:-}" =~ ^[0-9]+$ && "${hf:-}" =~ ^[0-9]+$ ]]; then
  passed=$((passed + hp)); failed=$((failed + hf))
  if [ "$hw_rc" -ne 0 ] && [ "$hf" -eq 0 ]; then fail_step "check-docs exited $hw_rc"; fi
else
  fail_step "hardware/check-docs.mjs printed no summary"
fi


echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
