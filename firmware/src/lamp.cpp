#include "lamp.h"

void Lamp::blink(uint16_t on_ms, uint16_t off_ms, uint16_t count, uint32_t now_ms) {
  mode_ = BLINK;
  on_ms_ = on_ms;
  off_ms_ = off_ms;
  count_ = count;
  cycles_ = 0;
  phase_start_ms_ = now_ms;
  phase_on_ = true;
}

bool Lamp::level(uint32_t now_ms) {
  if (mode_ != BLINK) return mode_ == ON;
  // Advance phase by phase, so a late call (a long loop iteration) catches up without drifting.
  for (;;) {
    uint32_t length = phase_on_ ? on_ms_ : off_ms_;
    if ((uint32_t)(now_ms - phase_start_ms_) < length) return phase_on_;
    phase_start_ms_ += length;
    if (!phase_on_) {
      cycles_++;
      if (count_ != 0 && cycles_ >= count_) {
        mode_ = OFF;
        return false;
      }
    }
    phase_on_ = !phase_on_;
  }
}
