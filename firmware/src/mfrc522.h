// A focused MFRC522 (ISO 14443A reader) driver: reset/init, RF field on/off, a *poll* for new tags and a
// *presence check* of a known one, over cascade levels 1-3 (4-, 7- and 10-byte UIDs), resolving collisions
// bit by bit. Nothing else: no MIFARE authentication, no data blocks.
//
// How several tags are kept track of with the field left on (ISO/IEC 14443-3 PICC states; station.cpp
// schedules the frames, tag_presence.h keeps the books):
//   poll():     REQA. Only IDLE tags answer: a tag that just entered the field (or lost power), never a
//               known one, which is HALTed. An answer is read at once — anticollision + SELECT per cascade
//               level (the tag goes ACTIVE; the others that answered the REQA go back to IDLE on the SELECT
//               that is not theirs) — and HLTA (ACTIVE -> HALT). No answer: no new powered tag was in the
//               field when the REQA went out (a tag needs up to 5 ms of field before it answers).
//   presence(): WUPA (HALT tags -> READY*, IDLE ones -> READY), then SELECT with the tag's own UID at every
//               cascade level but the last — every other woken tag takes the SELECT that is not its own as
//               an error and falls back to HALT (READY*) or IDLE (READY) — and at the last level of a 7- or
//               10-byte UID an ANTICOLLISION with no UID bit given, which only the tags still at that level
//               answer: this one alone (a tag sharing its upper levels would collide with it: seen, not
//               silent). A 4-byte UID is SELECTed (ACTIVE*). The checked tag is left READY*/ACTIVE* and the
//               next poll's REQA sends it back to HALT ("any other command"), without an answer, so that
//               REQA is an honest poll for new tags; only a check that went wrong ends with an HLTA.
//               Air time for a 7-byte UID: WUPA 0.37 ms, SELECT CL1 1.15 ms, ANTICOLLISION CL2 0.72 ms.
// After a failed read (a frame lost on the way), tags may be left READY or ACTIVE; the next REQA sends them
// back to IDLE without an answer, so that REQA proves nothing (the station does not count it as empty).
//
// Collisions: at a collision in an anticollision answer the driver reads the collision position
// (CollReg), keeps the bits before it, takes the `1` branch for the collided bit and asks again with those
// bits (NVB), until one tag is left. CollPos counts from bit 0 of the first FIFO byte, including the
// RxAlign bits of a partial first byte (as NXP's reader library reads the RC52x), so the collided UID bit
// is 8 x (full bytes sent) + CollPos.
//
// Timing (air times at 106 kbit/s, 9.44 us a bit): a tag answers after a fixed frame delay (~86-91 us,
// n = 9), so the chip's timer (started at the end of each transmission, stopped by the 5th received bit)
// waits 0.2 ms, not 1 ms: an empty poll takes ~0.35 ms. A presence check of a 7-byte UID takes ~2.5 ms,
// a 4-byte one ~1.7 ms (hardware/protocol.md, RFID timing). FIFO bytes go in one SPI burst each way. The timer is stopped explicitly before every frame (it runs independently of
// commands: a timer left running by an HLTA would fire during the next frame).
//
// CRC_A is computed in software (crc_a(), pure and host-tested) instead of with the chip's coprocessor:
// no extra SPI round trips and no polling loop.
#ifndef ZT_MFRC522_H
#define ZT_MFRC522_H

#include <stdint.h>

#include "tag_presence.h"

// ISO/IEC 14443-3 CRC_A (init 0x6363, reflected poly 0x8408). Send the low byte first.
uint16_t crc_a(const uint8_t *data, uint8_t len);

class Mfrc522 {
public:
  enum Step : uint8_t {
    EMPTY = 0, // the REQA was not answered: no IDLE tag in the field
    TAG = 1,   // *uid is filled and the tag is halted
    FAILED = 2 // something answered, but the read did not survive the checks (noise, a lost frame, no chip)
  };
  enum Presence : uint8_t {
    PRESENT = 0, // the tag answered its own UID
    ABSENT = 1,  // nothing answered
    UNSURE = 2   // something answered, garbled (noise, a collision): neither present nor absent
  };

  // Pins are fixed in pins.h (on the AVR, SS is driven as the pins.h pin directly); SPI uses the hardware
  // SPI pins.
  Mfrc522(uint8_t ss_pin, uint8_t rst_pin) : ss_(ss_pin), rst_(rst_pin), ready_(false) {}

  enum Health : uint8_t {
    UP = 0,       // configured and answering
    STARTING = 1, // coming back up after a reset (oscillator start-up): ask again next loop pass
    DOWN = 2      // does not answer on SPI (VersionReg 0x00/0xFF), or never finished starting
  };

  // Hard reset and configure the chip (RF field off); returns false when it does not answer
  // (VersionReg 0x00/0xFF). Waits for the oscillator (CommandReg.PowerDown clears, typically ~1 ms; at
  // most RFID_STARTUP_TIMEOUT_US): for setup(), not for the loop.
  bool begin();
  // For the loop, never blocking: UP when the chip answers and still holds our configuration; when it
  // came back after a fault or lost its configuration (a brown-out reset it), a hard reset is started and
  // each later call advances it (STARTING) until the chip is configured again (UP, field off).
  Health check();
  // Switches the RF field (both antenna drivers) on or off.
  void field(bool on);
  // A poll (see above): REQA; when answered, reads one tag (anticollision + SELECT) and halts it. Blocks
  // for the whole read (hardware/protocol.md, RFID timing), ~0.7 ms when nobody answers.
  // zero_branch: at a collision, follow the tags with a 0 at the collided bit instead of a 1. The station
  // alternates after a failed read, so a tag that cannot be read does not hide the tags on the other branch.
  Step poll(TagUid *uid, bool zero_branch = false);
  // A presence check of a known, HALTed tag (see above). Leaves it READY*/ACTIVE* (the next REQA halts
  // it), every other tag HALTed, new ones IDLE.
  // shared_upper: another known tag has the same upper cascade levels (TagPresence::shares_upper_levels):
  // the last level is then checked by its 32 bits and the check ends with an HLTA.
  Presence presence(const TagUid &uid, bool shared_upper);
  // HLTA: the ACTIVE tag (and any READY* one) to HALT, READY ones to IDLE. Done when the frame is out.
  void halt();
  uint8_t version();

private:
  enum Status : uint8_t { ST_OK, ST_TIMEOUT, ST_COLLISION, ST_ERROR };
  void select(bool on);
  uint8_t read_reg(uint8_t reg);
  void write_reg(uint8_t reg, uint8_t value);
  void write_fifo(const uint8_t *data, uint8_t n); // one SPI burst
  void read_fifo(uint8_t *data, uint8_t n);
  // Sends a frame and waits for the answer. rx == nullptr with *rx_len == 0: send only (done at TxIRq);
  // rx == nullptr with *rx_len != 0: only whether something answered (ST_OK) or not (ST_TIMEOUT).
  Status transceive(const uint8_t *tx, uint8_t tx_len, uint8_t bit_framing, uint8_t *rx, uint8_t *rx_len,
                    uint8_t *rx_last_bits, uint8_t *coll_pos);
  Status request(uint8_t cmd); // REQA / WUPA (a 7-bit short frame): ST_OK when something answered
  bool select_level(uint8_t sel, uint8_t cl[4], uint8_t *sak, bool zero_branch);
  static bool version_ok(uint8_t v) { return v != 0x00 && v != 0xFF; }
  void start_reset();    // RST pulse; the chip then starts its oscillator
  Health finish_reset(); // STARTING until CommandReg.PowerDown clears, then configures: UP (or DOWN)
  void configure();

  uint8_t ss_;
  uint8_t rst_;
  bool ready_;
  bool starting_ = false;
  uint32_t start_us_ = 0;
};

#endif
