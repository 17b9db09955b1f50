// ZAP button: debounce that keeps the time of the first edge, decided from the edge history.
//
// Pure logic, fed by the pin-change ISR (on_edge: the edge's micros() and the level after it) and polled
// from loop() (poll). A change of the button is accepted once the line has held a level for `quiet_us`
// without an edge and that level differs from the last accepted one; the event carries the micros() of the
// FIRST edge of that change, taken in the ISR, so contact bounce delays the report but never the timestamp
// (design principle 4: time is taken at the edge). A pulse shorter than the quiet time that ends at the old
// level is a glitch and reports nothing.
//
// The decision does not depend on when loop() looks: the ISR itself accepts a level that held for the
// quiet time when the next edge ends it, and queues the change (up to BUTTON_QUEUE); poll() reports the
// queued changes first, then accepts the current level once it has been quiet long enough. So a 9 ms press
// made while loop() was busy for 15 ms (an RFID step, a re-init of the reader) still gives BTN+ and BTN-,
// each stamped with its first edge. If the queue is full (more than BUTTON_QUEUE changes of >= 5 ms each
// while loop() was blocked), further changes are dropped in pairs: the reports always alternate.
//
// Concurrency: on_edge() runs in the ISR; call poll() (or advance() and take(), each) with interrupts
// disabled; idle() needs no critical section.
// All time arithmetic is modular (uint32_t subtraction), so the 71.6-minute micros() wrap is harmless.
#ifndef ZT_BUTTON_H
#define ZT_BUTTON_H

#include <stdint.h>

// A real arcade micro-switch bounces for 1-3 ms; 5 ms of quiet is a safe margin and still far below a
// human press (> 30 ms).
#define BUTTON_QUIET_US 5000UL
// Accepted changes waiting for loop(): one per >= 5 ms of blocking (4 covers a 15 ms RFID step).
#define BUTTON_QUEUE 4

struct ButtonEvent {
  bool pressed;  // true: BTN+, false: BTN-
  uint32_t t_us; // micros() at the first edge of the change
};

class ButtonDebouncer {
public:
  explicit ButtonDebouncer(uint32_t quiet_us = BUTTON_QUIET_US)
      : armed_(false), level_(false), first_edge_us_(0), last_edge_us_(0), stable_(false), head_(0), count_(0),
        quiet_us_(quiet_us) {}

  // Sets the accepted level at start-up (no event: the banner-time state is not a change).
  void begin(bool pressed_now) {
    stable_ = pressed_now;
    level_ = pressed_now;
    armed_ = false;
    head_ = 0;
    count_ = 0;
  }

  // ISR side: an edge happened at now_us; `pressed` is the level read right after it.
  void on_edge(uint32_t now_us, bool pressed);

  // loop() side: returns true and fills *out when a change has been accepted (call until false).
  // `pressed_now` is the live level: a change that came without any edge (two edges inside one
  // interrupts-off window) is taken as an edge now — late, but never lost. now_us may be taken before the
  // interrupts were disabled, so an edge may be newer than it: such a line is not quiet yet.
  bool poll(uint32_t now_us, bool pressed_now, ButtonEvent *out);
  // poll() in two halves, each short enough for its own interrupts-off section (the loop's sections delay
  // every ISR stamp, a slap's too): advance() accepts a level that has been quiet long enough (or takes a
  // change without an edge), take() hands out the oldest queued change. poll() = advance(), then take().
  void advance(uint32_t now_us, bool pressed_now);
  bool take(ButtonEvent *out);

  // True when poll() has nothing to do: nothing queued, no edge since the last accepted level, and the live
  // level is that level. Single-byte reads (atomic on the AVR), so no critical section is needed for it: the
  // loop enters one only while a change is under way. An edge racing with this call is seen at the next.
  bool idle(bool pressed_now) const { return count_ == 0 && !armed_ && pressed_now == level_; }

  bool pressed() const { return stable_; } // the last accepted (reported or queued) level

private:
  void settle(); // the level since the last edge held for the quiet time: accept it (or drop a glitch)

  volatile bool armed_;            // edges since the last accepted level
  volatile bool level_;            // the level after the last edge
  volatile uint32_t first_edge_us_; // the first edge since the last accepted level
  volatile uint32_t last_edge_us_;
  volatile bool stable_;           // the last accepted level
  volatile uint8_t head_;
  volatile uint8_t count_;
  ButtonEvent queue_[BUTTON_QUEUE];
  uint32_t quiet_us_;
};

#endif
