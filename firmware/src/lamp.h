// The ZAP button's lamp: on, off, or blinking (on_ms, off_ms, count cycles; count 0 = until changed).
//
// Pure state machine over millis() (host-tested); the station writes level() to the lamp pin every loop.
// Time arithmetic is modular, so the 49.7-day millis() wrap is harmless for any pattern in progress.
#ifndef ZT_LAMP_H
#define ZT_LAMP_H

#include <stdint.h>

class Lamp {
public:
  Lamp() : mode_(OFF), on_ms_(0), off_ms_(0), count_(0), cycles_(0), phase_start_ms_(0), phase_on_(false) {}
  void on() { mode_ = ON; }
  void off() { mode_ = OFF; }
  // Starts a pattern now, beginning with the lamp on.
  void blink(uint16_t on_ms, uint16_t off_ms, uint16_t count, uint32_t now_ms);
  // The lamp level at now_ms (advances the pattern; a finished pattern leaves the lamp off).
  bool level(uint32_t now_ms);

private:
  enum Mode : uint8_t { OFF, ON, BLINK };
  Mode mode_;
  uint16_t on_ms_;
  uint16_t off_ms_;
  uint16_t count_;
  uint16_t cycles_; // completed cycles
  uint32_t phase_start_ms_;
  bool phase_on_;
};

#endif
