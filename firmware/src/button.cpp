#include "button.h"

void ButtonDebouncer::settle() {
  armed_ = false;
  if (level_ == stable_) return; // a glitch: it came back before settling
  if (count_ >= BUTTON_QUEUE) return; // no room: drop it (stable_ unchanged, so reports still alternate)
  ButtonEvent &e = queue_[(uint8_t)((head_ + count_) % BUTTON_QUEUE)];
  e.pressed = level_;
  e.t_us = first_edge_us_;
  count_++;
  stable_ = level_;
}

void ButtonDebouncer::on_edge(uint32_t now_us, bool pressed) {
  // The level that held until this edge: quiet long enough to count?
  if (armed_ && (uint32_t)(now_us - last_edge_us_) >= quiet_us_) settle();
  if (!armed_) {
    armed_ = true;
    first_edge_us_ = now_us;
  }
  last_edge_us_ = now_us;
  level_ = pressed;
}

bool ButtonDebouncer::poll(uint32_t now_us, bool pressed_now, ButtonEvent *out) {
  if (count_ == 0) {
    if (armed_) {
      if ((uint32_t)(now_us - last_edge_us_) >= quiet_us_) settle();
    } else if (pressed_now != level_) {
      on_edge(now_us, pressed_now); // a change without an edge we saw
    }
  }
  if (count_ == 0) return false;
  *out = queue_[head_];
  head_ = (uint8_t)((head_ + 1) % BUTTON_QUEUE);
  count_--;
  return true;
}
