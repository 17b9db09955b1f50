// ZAP button: debounce that keeps the time of the first edge.
//
// Pure logic, fed by the pin-change ISR (on_edge) and polled from loop() (poll). A change of the button is
// accepted once the line has been quiet for `quiet_us` and then reads differently from the last accepted
// level; the event carries the micros() of the FIRST edge of that change, taken in the ISR, so contact
// bounce delays the report but never the timestamp (design principle 4: time is taken at the edge). A
// pulse shorter than the quiet time that ends at the old level is a glitch and reports nothing.
//
// Concurrency: on_edge() runs in the ISR; call poll() with interrupts disabled (it is a few dozen cycles).
// All time arithmetic is modular (uint32_t subtraction), so the 71.6-minute micros() wrap is harmless.
#ifndef ZT_BUTTON_H
#define ZT_BUTTON_H

#include <stdint.h>

// A real arcade micro-switch bounces for 1-3 ms; 5 ms of quiet is a safe margin and still far below a
// human press (> 30 ms).
#define BUTTON_QUIET_US 5000UL

struct ButtonEvent {
  bool pressed;  // true: BTN+, false: BTN-
  uint32_t t_us; // micros() at the first edge of the change
};

class ButtonDebouncer {
public:
  explicit ButtonDebouncer(uint32_t quiet_us = BUTTON_QUIET_US)
      : armed_(false), first_edge_us_(0), last_edge_us_(0), stable_(false), quiet_us_(quiet_us) {}

  // Sets the accepted level at start-up (no event: the banner-time state is not a change).
  void begin(bool pressed_now) {
    stable_ = pressed_now;
    armed_ = false;
  }

  // ISR side: an edge happened at now_us.
  void on_edge(uint32_t now_us) {
    if (!armed_) {
      armed_ = true;
      first_edge_us_ = now_us;
    }
    last_edge_us_ = now_us;
  }

  // loop() side: returns true and fills *out when a change has been accepted.
  bool poll(uint32_t now_us, bool pressed_now, ButtonEvent *out);

  bool pressed() const { return stable_; }

private:
  volatile bool armed_;
  volatile uint32_t first_edge_us_;
  volatile uint32_t last_edge_us_;
  bool stable_;
  uint32_t quiet_us_;
};

#endif
