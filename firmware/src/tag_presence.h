// RFID tag presence: turns the reader's poll results into TAG+ / TAG- events.
//
// A tag has arrived on the first successful read of its UID; it has left only after TAG_MISSES_TO_LEAVE
// polls in a row found nothing (a single missed read happens when a tag sits at the edge of the field or
// a read collides with noise). A different UID read while a tag is present means the tag was swapped:
// TAG- for the old one, then TAG+ for the new one, both at the time of that read.
//
// Timestamps: TAG+ carries the time of the read that first saw the tag; TAG- carries the time of the FIRST
// missed read (the tag was already gone then). Either is uncertain by one poll interval.
// Pure logic (host-tested); the driver that produces the poll results is mfrc522.{h,cpp}.
#ifndef ZT_TAG_PRESENCE_H
#define ZT_TAG_PRESENCE_H

#include <stdint.h>

#define TAG_MISSES_TO_LEAVE 2
#define TAG_MAX_UID 10

struct TagUid {
  uint8_t len; // 4, 7 or 10; 0 = none
  uint8_t bytes[TAG_MAX_UID];
};

bool tag_uid_equal(const TagUid &a, const TagUid &b);

struct TagChange {
  bool arrived; // true: TAG+, false: TAG-
  TagUid uid;
  uint32_t t_us;
};

class TagPresence {
public:
  TagPresence() : misses_(0), first_miss_us_(0) { present_.len = 0; }
  // One poll result: found (with uid) or not, at now_us. Writes up to two changes to out[] (a swap gives
  // TAG- then TAG+) and returns how many.
  uint8_t update(bool found, const TagUid &uid, uint32_t now_us, TagChange out[2]);
  bool present() const { return present_.len != 0; }
  const TagUid &uid() const { return present_; }

private:
  TagUid present_;
  uint8_t misses_;
  uint32_t first_miss_us_;
};

#endif
