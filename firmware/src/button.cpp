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

void ButtonDebouncer::advance(uint32_t now_us, bool pressed_now) {
  if (count_ != 0) return; // report what is queued first
  if (armed_) {
    // Signed: an edge the ISR took after the caller read now_us is newer than now_us (not quiet). Exact
    // while the edge is < 35 min old; the loop settles a line within ms of its quiet time.
    if ((int32_t)(now_us - last_edge_us_) >= (int32_t)quiet_us_) settle();
  } else if (pressed_now != level_) {
    on_edge(now_us, pressed_now); // a change without an edge we saw
  }
}

bool ButtonDebouncer::take(ButtonEvent *out) {
  if (count_ == 0) return false;
  *out = queue_[head_];
  head_ = (uint8_t)((head_ + 1) % BUTTON_QUEUE);
  count_--;
  return true;
}

bool ButtonDebouncer::poll(uint32_t now_us, bool pressed_now, ButtonEvent *out) {
  advance(now_us, pressed_now);
  return take(out);
}
