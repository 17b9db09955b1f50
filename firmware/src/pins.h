// Every pin the station firmware uses, in one place (grbl's cpu_map.h idea).
//
// The table below is the single source: hardware/pin-table.md documents the same rows, and a host test
// (firmware/test/test_pins.cpp) parses that Markdown table and fails when the two disagree.
//
// X(name, uno_nano_pin, mega_pin, stations)   stations: SEAT = seat only, BOTH = seat and pile
//
// Why these pins:
//  - BUTTON on D2: an external-interrupt pin on every board (INT0 on the 328P, INT4 on the Mega), so the
//    first edge is timestamped in an ISR with the lowest latency the core offers.
//  - SLAP on D3, the other external-interrupt pin (INT1 / INT5), for the same reason: the optional piezo
//    sensor's comparator output (open collector, active low; the internal pull-up keeps the pin quiet when no
//    sensor is fitted). The 328P's own analog comparator (AIN0/AIN1) is not used: AIN0 is D6, the lamp.
//  - The MFRC522 sits on the hardware SPI pins (fixed by the chip: D11-D13 on the 328P, D50-D52 on the
//    Mega). RFID_SS must be an output while SPI is master; on the Mega the board's SS pin D53 is used.
//  - HX711 and the lamp use plain digital pins; the lamp pin (D6, OC0A) could be dimmed with PWM later.
//  - D0/D1 are the USB serial link and are never used for anything else.
#ifndef ZT_PINS_H
#define ZT_PINS_H

#define ZT_SEAT 1
#define ZT_BOTH 2

#define ZT_PIN_TABLE(X)              \
  X(BUTTON, 2, 2, ZT_SEAT)           \
  X(SLAP, 3, 3, ZT_BOTH)             \
  X(HX711_DOUT, 4, 4, ZT_SEAT)       \
  X(HX711_SCK, 5, 5, ZT_SEAT)        \
  X(LAMP, 6, 6, ZT_SEAT)             \
  X(RFID_RST, 9, 9, ZT_BOTH)         \
  X(RFID_SS, 10, 53, ZT_BOTH)        \
  X(RFID_MOSI, 11, 51, ZT_BOTH)      \
  X(RFID_MISO, 12, 50, ZT_BOTH)      \
  X(RFID_SCK, 13, 52, ZT_BOTH)

#if defined(__AVR_ATmega2560__) || defined(__AVR_ATmega1280__)
#define ZT_PIN_ENUM(name, uno, mega, stations) PIN_##name = mega,
#else
#define ZT_PIN_ENUM(name, uno, mega, stations) PIN_##name = uno,
#endif

enum ZtPin { ZT_PIN_TABLE(ZT_PIN_ENUM) };

#undef ZT_PIN_ENUM

#endif
