#include "tag_presence.h"

#include <string.h>

// A tag leaving is stamped with the end of its first missed cycle, which is the complete cycle before the
// last one only while two misses make a departure.
static_assert(TAG_MISSES_TO_LEAVE == 2, "tag_presence.cpp keeps the end times of the last two complete cycles");
static_assert(TAG_MAX_PRESENT <= 127, "slot indices are int8_t");

#define SEEN_BIT 0x80
#define MISSES_MASK 0x7F

bool tag_uid_equal(const TagUid &a, const TagUid &b) {
  return a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0;
}

TagPresence::TagPresence() { reset(); }

void TagPresence::reset() {
  last_end_us_ = 0;
  first_miss_us_ = 0;
  overflow_cycle_ = false;
  overflow_ = false;
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    slots_[i].uid.len = 0;
    slots_[i].state = 0;
  }
}

int8_t TagPresence::find(const TagUid &uid) const {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    if (slots_[i].uid.len != 0 && tag_uid_equal(slots_[i].uid, uid)) return (int8_t)i;
  }
  return -1;
}

void TagPresence::begin_cycle() {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) slots_[i].state &= MISSES_MASK;
  overflow_cycle_ = false;
}

TagPresence::Seen TagPresence::seen(const TagUid &uid, uint32_t t_us, TagChange *out) {
  int8_t at = find(uid);
  if (at >= 0) {
    Slot &s = slots_[at];
    if (s.state & SEEN_BIT) return DUPLICATE;
    s.state = SEEN_BIT; // read: the misses are forgotten
    return KNOWN;
  }
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    Slot &s = slots_[i];
    if (s.uid.len != 0) continue;
    s.uid = uid;
    s.state = SEEN_BIT;
    out->arrived = true;
    out->uid = uid;
    out->t_us = t_us;
    return ARRIVED;
  }
  overflow_cycle_ = true;
  return NO_ROOM;
}

void TagPresence::end_cycle(bool complete, uint32_t t_us) {
  if (!complete) {
    overflow_ = overflow_ || overflow_cycle_;
    return; // presence unknown for the tags not visited: nothing leaves
  }
  overflow_ = overflow_cycle_;
  first_miss_us_ = last_end_us_;
  last_end_us_ = t_us;
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    Slot &s = slots_[i];
    if (s.uid.len == 0 || (s.state & SEEN_BIT)) continue;
    if ((s.state & MISSES_MASK) < TAG_MISSES_TO_LEAVE) s.state++;
  }
}

bool TagPresence::take_departure(TagChange *out) {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    Slot &s = slots_[i];
    if (s.uid.len == 0 || (s.state & SEEN_BIT) || (s.state & MISSES_MASK) < TAG_MISSES_TO_LEAVE) continue;
    out->arrived = false;
    out->uid = s.uid;
    out->t_us = first_miss_us_;
    s.uid.len = 0;
    s.state = 0;
    return true;
  }
  return false;
}

uint8_t TagPresence::count() const {
  uint8_t n = 0;
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) n = (uint8_t)(n + (slots_[i].uid.len != 0));
  return n;
}

bool TagPresence::present(const TagUid &uid) const { return find(uid) >= 0; }
