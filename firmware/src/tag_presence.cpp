#include "tag_presence.h"

#include <string.h>

bool tag_uid_equal(const TagUid &a, const TagUid &b) {
  return a.len == b.len && memcmp(a.bytes, b.bytes, a.len) == 0;
}

uint8_t TagPresence::update(bool found, const TagUid &uid, uint32_t now_us, TagChange out[2]) {
  uint8_t n = 0;
  if (found) {
    misses_ = 0;
    if (present_.len != 0 && tag_uid_equal(present_, uid)) return 0;
    if (present_.len != 0) { // swapped without two misses in between
      out[n].arrived = false;
      out[n].uid = present_;
      out[n].t_us = now_us;
      n++;
    }
    present_ = uid;
    out[n].arrived = true;
    out[n].uid = uid;
    out[n].t_us = now_us;
    return (uint8_t)(n + 1);
  }
  if (present_.len == 0) return 0;
  if (misses_ == 0) first_miss_us_ = now_us;
  if (++misses_ < TAG_MISSES_TO_LEAVE) return 0;
  out[0].arrived = false;
  out[0].uid = present_;
  out[0].t_us = first_miss_us_;
  present_.len = 0;
  misses_ = 0;
  return 1;
}
