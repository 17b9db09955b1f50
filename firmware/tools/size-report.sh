#!/bin/sh
# Prints flash and RAM use of AVR ELF files: size-report.sh <elf> <ram-bytes> [<elf> <ram-bytes> ...]
# flash = .text + .data (initialised data is stored in flash and copied to RAM at start)
# ram   = .data + .bss (static RAM; the stack and the rest live in what is left)
set -eu
while [ $# -ge 2 ]; do
  elf=$1; ram_total=$2; shift 2
  avr-size -A "$elf" | awk -v elf="$elf" -v ram_total="$ram_total" '
    $1 == ".text" { text = $2 } $1 == ".data" { data = $2 } $1 == ".bss" { bss = $2 }
    END {
      flash = text + data; ram = data + bss
      printf "%-32s flash %6d bytes (text %d + data %d)   RAM %5d bytes (data %d + bss %d), %d of %d free\n",
        elf, flash, text, data, ram, data, bss, ram_total - ram, ram_total
    }'
done
