#include "tag_presence.h"

#include <string.h>

static_assert(TAG_MAX_PRESENT <= 127, "slot indices are int8_t");

bool tag_uid_equal(const TagUid &a, const TagUid &b) {
  return a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0;
}

uint8_t tag_uid_levels(const TagUid &uid) { return uid.len <= 4 ? 1 : uid.len <= 7 ? 2 : 3; }

void tag_uid_level(const TagUid &uid, uint8_t level, uint8_t out[4]) {
  const uint8_t *from = uid.bytes + 3 * level;
  if (level + 1 == tag_uid_levels(uid)) {
    memcpy(out, from, 4);
  } else {
    out[0] = 0x88;
    memcpy(out + 1, from, 3);
  }
}

TagPresence::TagPresence() { reset(); }

#define SHARES_BIT 0x80
#define MISSES_MASK 0x7F

bool TagPresence::shares_upper_levels(uint8_t slot) const { return (slots_[slot].misses & SHARES_BIT) != 0; }

void TagPresence::update_shares() {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    if (slots_[i].uid.len == 0) continue;
    slots_[i].misses = (uint8_t)((slots_[i].misses & MISSES_MASK) | (compute_shares(i) ? SHARES_BIT : 0));
  }
}

bool TagPresence::compute_shares(uint8_t slot) const {
  const TagUid &a = slots_[slot].uid;
  uint8_t upper = (uint8_t)(tag_uid_levels(a) - 1);
  if (upper == 0) return false; // a 4-byte UID is SELECTed whole
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    const TagUid &b = slots_[i].uid;
    if (i == slot || b.len == 0) continue;
    bool same = true;
    for (uint8_t level = 0; level < upper && same; level++) {
      if (level >= tag_uid_levels(b)) {
        same = false;
        break;
      }
      uint8_t x[4], y[4];
      tag_uid_level(a, level, x);
      tag_uid_level(b, level, y);
      same = memcmp(x, y, 4) == 0;
    }
    if (same) return true;
  }
  return false;
}

void TagPresence::reset() {
  overflow_ = false;
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    slots_[i].uid.len = 0;
    slots_[i].misses = 0;
  }
}

int8_t TagPresence::find(const TagUid &uid) const {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    if (slots_[i].uid.len != 0 && tag_uid_equal(slots_[i].uid, uid)) return (int8_t)i;
  }
  return -1;
}

TagPresence::Seen TagPresence::seen(const TagUid &uid, uint32_t t_us, uint32_t last_empty_us, TagChange *out) {
  int8_t at = find(uid);
  if (at >= 0) {
    Slot &s = slots_[at];
    s.misses &= SHARES_BIT;
    s.last_seen_us = t_us;
    return KNOWN;
  }
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    Slot &s = slots_[i];
    if (s.uid.len != 0) continue;
    s.uid = uid;
    s.misses = 0;
    s.last_seen_us = t_us;
    update_shares();
    out->arrived = true;
    out->uid = uid;
    out->t_us = t_us;
    out->window_us = (uint32_t)(t_us - last_empty_us);
    return ARRIVED;
  }
  overflow_ = true;
  return NO_ROOM;
}

int8_t TagPresence::next_slot(uint8_t from) const {
  for (uint8_t n = 0; n < TAG_MAX_PRESENT; n++) {
    uint8_t i = (uint8_t)((from + n) % TAG_MAX_PRESENT);
    if (slots_[i].uid.len != 0) return (int8_t)i;
  }
  return -1;
}

bool TagPresence::checked(uint8_t slot, Check result, uint32_t start_us) {
  Slot &s = slots_[slot];
  if (s.uid.len == 0 || result == UNSURE) return false;
  if (result == ANSWERED) {
    s.misses &= SHARES_BIT;
    s.last_seen_us = start_us; // it answered at some moment of the check: it was there after its start
    return false;
  }
  if ((s.misses & MISSES_MASK) < MISSES_MASK) s.misses++;
  return (s.misses & MISSES_MASK) >= TAG_MISSES_TO_LEAVE;
}

bool TagPresence::suspects() const {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    if (slots_[i].uid.len != 0 && (slots_[i].misses & MISSES_MASK) >= TAG_MISSES_TO_LEAVE) return true;
  }
  return false;
}

bool TagPresence::left(uint32_t end_us, TagChange *out) {
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) {
    Slot &s = slots_[i];
    if (s.uid.len == 0 || (s.misses & MISSES_MASK) < TAG_MISSES_TO_LEAVE) continue;
    out->arrived = false;
    out->uid = s.uid;
    out->t_us = end_us;
    out->window_us = (uint32_t)(end_us - s.last_seen_us);
    s.uid.len = 0;
    s.misses = 0;
    update_shares();
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
