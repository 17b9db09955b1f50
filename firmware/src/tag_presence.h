// RFID tag presence for several tags per reader: turns polls and presence checks into TAG+ / TAG- events,
// each with the interval in which the tag arrived or left (protocol 2: `<uid> <window_us>`).
//
// The reader (station.cpp, mfrc522.h) keeps its field on and every known tag HALTed, and alternates two
// kinds of frames:
//  - a *poll* (REQA) every loop pass: only a tag in IDLE answers — one that just entered the field (or lost
//    power) — and is read (anticollision, SELECT) and halted. A poll nobody answered proves that no new
//    powered tag was in the field at that moment: the station passes the time of the last such poll, and a
//    tag read for the first time has arrived since then: TAG+ at the read, window = read − that poll;
//  - a *presence check* of one known tag (WUPA, SELECT/ANTICOLLISION with its UID, HLTA): answered, missed,
//    or unsure (something answered, garbled). An unsure check counts neither way (never invent a TAG-).
//    A tag that misses TAG_MISSES_TO_LEAVE checks in a row is only *suspected* gone: on a real radio an
//    answer gets lost now and then, and a halted tag that is still there answers no poll, so dropping it
//    would lose it for good. The station then runs a full inventory (a field reset wakes every tag; each is
//    read again), and only a suspect that inventory did not read has left (left()): TAG- stamped with the END
//    of that inventory, window = back to the START of the last check (or read) it answered. Not the end of
//    a missed check: any miss may be a lost answer (the tag still there, lifted a moment later, even during
//    the inventory before its turn to be read); only the inventory's end is a moment it was surely gone.
// A KNOWN tag read again by a poll had lost power (lifted and put back between two of its checks, or the
// field was reset for an inventory): it is present, its misses are forgotten, nothing is reported.
// More tags than slots: the extra ones are not reported until a slot frees up; overflow() tells the
// station, which raises FAULT+ rfid and, once a slot is free, resets the field to find them again
// (hardware/protocol.md, Limits).
//
// Pure logic (host-tested). RAM: TAG_MAX_PRESENT x 16 bytes.
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
// The 4 bytes of a UID's cascade level `level` (0-based): the cascade tag 0x88 and 3 UID bytes below the
// last level, the last 4 UID bytes at it (ISO/IEC 14443-3, 6.5.4).
void tag_uid_level(const TagUid &uid, uint8_t level, uint8_t out[4]);
uint8_t tag_uid_levels(const TagUid &uid); // 1, 2 or 3

struct TagChange {
  bool arrived; // true: TAG+, false: TAG-
  TagUid uid;
  uint32_t t_us;      // TAG+: the read; TAG-: the end of the inventory that did not read it
  uint32_t window_us; // it happened in [t_us - window_us, t_us]
};

class TagPresence {
public:
  enum Seen : uint8_t {
    ARRIVED = 0, // new: *out holds the TAG+
    KNOWN = 1,   // present already (it had lost power and answered a poll again)
    NO_ROOM = 2  // a new tag, but every slot is taken (overflow() from now on)
  };
  enum Check : uint8_t {
    ANSWERED = 0, // the tag answered its presence check
    MISSED = 1,   // nothing answered
    UNSURE = 2    // something answered, but not clearly this tag (a garbled frame): counts neither way
  };

  TagPresence();
  // Back to the power-on state (no tag present), in place: a `tags = TagPresence()` would build a
  // TAG_MAX_PRESENT-slot temporary on the stack.
  void reset();

  // A poll read this tag at t_us; last_empty_us is the last poll before it that nobody answered.
  Seen seen(const TagUid &uid, uint32_t t_us, uint32_t last_empty_us, TagChange *out);

  // The next tracked slot at or after `from` (wrapping), or -1 when no tag is tracked.
  int8_t next_slot(uint8_t from) const;
  const TagUid &uid_at(uint8_t slot) const { return slots_[slot].uid; }
  // True when another tracked tag has the same cascade levels as this one, all but the last: a presence
  // check then has to single it out by its last level's bits (mfrc522.h).
  bool shares_upper_levels(uint8_t slot) const;
  // The result of slot's presence check, which began at start_us. True when the tag has now missed
  // TAG_MISSES_TO_LEAVE checks in a row: a suspect, which leaves only if the next full inventory does not
  // read it (seen() during it clears the suspicion; left() afterwards).
  bool checked(uint8_t slot, Check result, uint32_t start_us);
  // True while some tag is suspected gone (a full inventory is due).
  bool suspects() const;
  // After a complete inventory that ended at end_us: one suspect it did not read has left. *out holds its
  // TAG- and the slot is free again. Call until false.
  bool left(uint32_t end_us, TagChange *out);

  uint8_t count() const; // tags tracked
  bool present(const TagUid &uid) const;
  bool full() const { return count() == TAG_MAX_PRESENT; }
  // A tag found no slot since the last clear_overflow(): the picture is incomplete.
  bool overflow() const { return overflow_; }
  void clear_overflow() { overflow_ = false; }

private:
  struct Slot {
    TagUid uid;             // len 0: free
    uint8_t misses;         // bits 0-6: presence checks missed in a row; bit 7: shares its upper levels
    uint32_t last_seen_us;  // the start of the last read or check it answered
  };
  int8_t find(const TagUid &uid) const;
  bool compute_shares(uint8_t slot) const;
  void update_shares(); // after a tag arrived or left (the flag is read on every presence check)
  Slot slots_[TAG_MAX_PRESENT];
  bool overflow_;
};

#endif
