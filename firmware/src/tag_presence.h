// RFID tag presence for several tags per reader: turns inventory cycles into TAG+ / TAG- events.
//
// The reader works in inventory cycles (mfrc522.h): every tag in the field is read exactly once per
// cycle, and a cycle is *complete* when it ended with a request nobody answered. This class keeps one slot
// per present tag (up to TAG_MAX_PRESENT):
//  - a UID read for the first time has arrived: TAG+ at once, stamped with the time of the read that saw it;
//  - a present tag has left only after TAG_MISSES_TO_LEAVE complete cycles in a row did not read it (a tag
//    at the edge of the field, or a read lost to noise, misses one cycle now and then): TAG- at the end of
//    the second cycle, stamped with the end of the FIRST missed cycle (the tag was not answering then);
//  - an incomplete cycle (the reader gave up before the field was empty: errors, too many steps) counts no
//    misses: presence is unknown, so nothing leaves (never invent a TAG-).
// More tags than slots: the extra ones are not reported until a slot frees up (a present tag left); the
// cycle is flagged (overflow()) and the station reports it as FAULT+ rfid (hardware/protocol.md, Limits).
//
// Pure logic (host-tested); the driver that produces the reads is mfrc522.{h,cpp}, the cycle scheduling is
// in station.cpp. RAM: TAG_MAX_PRESENT x 12 bytes.
#ifndef ZT_TAG_PRESENCE_H
#define ZT_TAG_PRESENCE_H

#include <stdint.h>

#define TAG_MISSES_TO_LEAVE 2
#define TAG_MAX_UID 10
#ifndef TAG_MAX_PRESENT
#if defined(STATION_KIND_PILE)
#define TAG_MAX_PRESENT 32 // the pile build has the RAM (no load cell, no button)
#else
#define TAG_MAX_PRESENT 16 // a whole Zip-Zap hand (13 cards) fits on a seat pad
#endif
#endif

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
  enum Seen : uint8_t {
    ARRIVED = 0,   // new: *out holds the TAG+
    KNOWN = 1,     // present already
    DUPLICATE = 2, // already read in this cycle (its HLTA was lost: it woke up again)
    NO_ROOM = 3    // a new tag, but every slot is taken (overflow() after the cycle)
  };

  TagPresence();
  // Back to the power-on state (no tag present), in place: a `tags = TagPresence()` would build a
  // TAG_MAX_PRESENT x 12-byte temporary on the stack.
  void reset();
  // A new inventory cycle begins.
  void begin_cycle();
  // A tag was read in this cycle at t_us.
  Seen seen(const TagUid &uid, uint32_t t_us, TagChange *out);
  // The cycle ended at t_us; complete = it ended with an empty field (every tag was visited).
  void end_cycle(bool complete, uint32_t t_us);
  // After end_cycle(): the tags that left, one per call (TAG-); false when there are no more.
  bool take_departure(TagChange *out);

  uint8_t count() const;                 // tags present
  bool present(const TagUid &uid) const;
  bool overflow() const { return overflow_; } // the last complete cycle saw more tags than slots

private:
  struct Slot {
    TagUid uid;    // len 0: free
    uint8_t state; // bit 7: read in this cycle; bits 0-6: complete cycles missed in a row
  };
  int8_t find(const TagUid &uid) const;
  Slot slots_[TAG_MAX_PRESENT];
  uint32_t last_end_us_;  // end of the last complete cycle
  uint32_t first_miss_us_; // end of the complete cycle before it (the first miss of a tag leaving now)
  bool overflow_cycle_;
  bool overflow_;
};

#endif
