#include "button.h"

bool ButtonDebouncer::poll(uint32_t now_us, bool pressed_now, ButtonEvent *out) {
  if (!armed_) {
    if (pressed_now == stable_) return false;
    // The level changed without an edge we saw (two edges inside one interrupts-off window, or a pin
    // that started mid-change). Treat now as the first edge: late, but never lost.
    on_edge(now_us);
    return false;
  }
  if ((uint32_t)(now_us - last_edge_us_) < quiet_us_) return false; // still bouncing
  armed_ = false;
  if (pressed_now == stable_) return false; // a glitch: it came back before settling
  stable_ = pressed_now;
  out->pressed = pressed_now;
  out->t_us = first_edge_us_;
  return true;
}
