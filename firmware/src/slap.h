// The piezo "slap" sensor under a pad (optional hardware: hardware/wiring.md, Slap sensor): a comparator
// (LM393) pulls SLAP low while the piezo's voltage is above the threshold set on its trimpot, so an impact
// makes a falling edge, and the ring-down that follows — the plate and the disc ring for a few ms — makes
// more. One impact is one SLAP, stamped with its FIRST edge:
//  - the pin-change ISR takes micros() first (on_edge), like the button's, so RFID steps never delay the
//    stamp (only another interrupt can, by a few us);
//  - an edge starts a new impact only when the line has been quiet (no edge) for SLAP_QUIET_US: the ring-down
//    of one impact keeps producing edges, the next impact comes after it has died away. Two impacts closer
//    than that (and their ring-down) are one SLAP: the TAG+ that follow still say what landed.
// With no sensor fitted the pin's pull-up holds it high: no edge, no SLAP.
//
// Pure logic (host-tested). Concurrency: on_edge() runs in the ISR; call poll() with interrupts disabled
// (idle() needs no critical section).
// Time arithmetic is modular (uint32_t subtraction); poll() marks the line quiet after SLAP_QUIET_US, so a
// 71.6-minute micros() wrap between two impacts cannot hide the second one.
#ifndef ZT_SLAP_H
#define ZT_SLAP_H

#include <stdint.h>

// A card or a barrel hitting a 3-6 mm plate with a 27 mm piezo disc under it rings for a few ms; 20 ms of
// quiet ends an impact (and a barrel's bounce within that is part of its landing).
#define SLAP_QUIET_US 20000UL
// Impacts waiting for loop(): one per >= 20 ms of blocking.
#define SLAP_QUEUE 2

class SlapDetector {
public:
  explicit SlapDetector(uint32_t quiet_us = SLAP_QUIET_US) : quiet_us_(quiet_us) { reset(); }
  void reset() {
    quiet_ = true;
    last_edge_us_ = 0;
    head_ = 0;
    count_ = 0;
    dropped_ = 0;
  }

  // ISR side: a falling edge of the comparator output at now_us.
  void on_edge(uint32_t now_us) {
    if (quiet_ || (uint32_t)(now_us - last_edge_us_) >= quiet_us_) {
      if (count_ < SLAP_QUEUE) {
        queue_[(uint8_t)((head_ + count_) % SLAP_QUEUE)] = now_us;
        count_++;
      } else if (dropped_ < 255) {
        dropped_++;
      }
    }
    quiet_ = false;
    last_edge_us_ = now_us;
  }

  // True when poll() has nothing to do (nothing queued, the line quiet): single-byte reads, no critical
  // section needed; an edge racing with it is seen at the next call.
  bool idle() const { return count_ == 0 && quiet_; }

  // loop() side: true with *t_us = the first edge of an impact, one per call (call until false). now_us may
  // be read before interrupts were disabled: an edge newer than it means the line is not quiet (signed).
  bool poll(uint32_t now_us, uint32_t *t_us) {
    if (!quiet_ && (int32_t)(now_us - last_edge_us_) >= (int32_t)quiet_us_) quiet_ = true;
    if (count_ == 0) return false;
    *t_us = queue_[head_];
    head_ = (uint8_t)((head_ + 1) % SLAP_QUEUE);
    count_--;
    return true;
  }

  // Impacts lost because loop() was away for more than SLAP_QUEUE of them (never expected).
  uint8_t dropped() const { return dropped_; }

private:
  volatile bool quiet_;          // no edge for quiet_us_: the next edge is a new impact
  volatile uint32_t last_edge_us_;
  volatile uint32_t queue_[SLAP_QUEUE];
  volatile uint8_t head_;
  volatile uint8_t count_;
  volatile uint8_t dropped_;
  uint32_t quiet_us_;
};

#endif
