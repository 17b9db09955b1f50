#!/usr/bin/env bash
# Firmware CI: host tests (ASan + UBSan), the three AVR builds, flash/RAM report and budget check.
# Works from a fresh clone; installs the Debian AVR toolchain when it is missing. Outputs in firmware/build/.
#
# Budget (ATmega328P seat build): flash <= 30720 bytes (32 KB minus the bootloader, with margin), and
# static .data + .bss <= 1536 as a cheap first guard. The stack itself (>= 512 bytes of SRAM never touched at
# its deepest point, seat and pile builds) is measured in the emulator: test/emulator/firmware-stack.test.ts.
set -euo pipefail
cd "$(dirname "$0")"

FLASH_MAX=30720
STATIC_RAM_MAX=1536

if ! command -v avr-gcc >/dev/null || ! command -v g++ >/dev/null || [ ! -d /usr/share/arduino/hardware/arduino/avr ]; then
  echo "== installing the AVR toolchain (gcc-avr, avr-libc, arduino-core-avr)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends gcc-avr avr-libc arduino-core-avr g++ make >/dev/null
fi

JOBS=$(nproc 2>/dev/null || echo 2)

echo "== host tests (g++ -Wall -Wextra -Werror -fsanitize=address,undefined)"
make -s -j"$JOBS" build/host/tests build/host/tests-pile
./build/host/tests
./build/host/tests-pile station
# The runner fails when its filter selects no test (a renamed test must not turn the pile run into "0 passed").
if ./build/host/tests-pile no-test-has-this-name >/dev/null; then
  echo "FAIL: the host test runner passed with a filter that matches no test"
  exit 1
fi
echo "OK: a filter that matches no test fails"

echo "== AVR builds"
make -s -j"$JOBS" avr
make -s -j"$JOBS" avr-pile
make -s -j"$JOBS" mega

echo "== size"
sh tools/size-report.sh build/seat-328p/zaptable.elf 2048 build/pile-328p/zaptable.elf 2048 \
  build/seat-2560/zaptable.elf 8192

read -r text data bss < <(avr-size -A build/seat-328p/zaptable.elf |
  awk '$1==".text"{t=$2} $1==".data"{d=$2} $1==".bss"{b=$2} END{print t+0, d+0, b+0}')
flash=$((text + data))
ram=$((data + bss))
status=0
if [ "$flash" -gt "$FLASH_MAX" ]; then
  echo "FAIL: seat-328p uses $flash bytes of flash, budget $FLASH_MAX"
  status=1
fi
if [ "$ram" -gt "$STATIC_RAM_MAX" ]; then
  echo "FAIL: seat-328p uses $ram bytes of static RAM, budget $STATIC_RAM_MAX (>= 512 bytes must stay free)"
  status=1
fi
[ "$status" -eq 0 ] && echo "OK: seat-328p within budget (flash $flash/$FLASH_MAX, static RAM $ram/$STATIC_RAM_MAX)"
exit "$status"
