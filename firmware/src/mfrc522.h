// A focused MFRC522 (ISO 14443A reader) driver: reset/init, WUPA, anticollision + select over cascade
// levels 1-3 (4-, 7- and 10-byte UIDs), HLTA. Nothing else: no MIFARE authentication, no data blocks.
//
// Each poll wakes every tag in the field with WUPA (a tag we halted last poll must be woken: REQA would
// not reach it), reads one UID, and halts that tag again. When several tags are in the field, the
// anticollision loop always takes the `1` branch at a collision, so the same tag wins every poll
// (see hardware/protocol.md, "Limits").
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
  enum Result : uint8_t {
    NO_TAG = 0, // no answer, or an answer that did not survive the checks (counts as a missed read)
    TAG = 1,    // *uid is filled
    FAULT = 2   // the chip itself does not answer on SPI (unplugged, no power)
  };

  // Pins are fixed in pins.h; SPI uses the hardware SPI pins.
  Mfrc522(uint8_t ss_pin, uint8_t rst_pin) : ss_(ss_pin), rst_(rst_pin), ready_(false) {}

  // Hard reset and configure the chip; returns false when it does not answer (VersionReg 0x00/0xFF).
  bool begin();
  // One poll: WUPA, select, HLTA. Re-initialises the chip by itself after a fault clears.
  Result read_uid(TagUid *uid);
  uint8_t version();

private:
  enum Status : uint8_t { ST_OK, ST_TIMEOUT, ST_COLLISION, ST_ERROR };
  uint8_t read_reg(uint8_t reg);
  void write_reg(uint8_t reg, uint8_t value);
  Status transceive(const uint8_t *tx, uint8_t tx_len, uint8_t bit_framing, uint8_t *rx, uint8_t *rx_len,
                    uint8_t *rx_last_bits, uint8_t *coll_pos);
  bool select_level(uint8_t sel, uint8_t cl[4], uint8_t *sak);
  void halt();
  static bool version_ok(uint8_t v) { return v != 0x00 && v != 0xFF; }

  uint8_t ss_;
  uint8_t rst_;
  bool ready_;
};

#endif
