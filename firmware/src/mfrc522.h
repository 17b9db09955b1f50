// A focused MFRC522 (ISO 14443A reader) driver: reset/init, RF field on/off, and an inventory step —
// REQA, anticollision + select over cascade levels 1-3 (4-, 7- and 10-byte UIDs) resolving collisions bit
// by bit, HLTA. Nothing else: no MIFARE authentication, no data blocks.
//
// Inventory (several tags in the field), following the ISO/IEC 14443-3 PICC state machine:
//   field off >= 5.1 ms (every tag loses power)  ->  field on, >= 5.1 ms unmodulated (tags reach IDLE)
//   step:  REQA -> only IDLE tags answer (READY); anticollision/select one of them (ACTIVE); HLTA it (HALT).
//          The other READY tags take the HLTA as "another command" and fall back to IDLE.
//   repeat the step until a REQA is not answered: every tag in the field was read exactly once.
// Why not WUPA: WUPA also wakes HALT tags, and a tag woken from HALT (READY*) that is not the one selected
// falls back to HALT, not IDLE, on the next command — so after one WUPA a REQA loop would miss every tag
// but one. Switching the field off is the one way to bring every tag back to IDLE; it costs no loop time
// (station.cpp switches it between cycles).
//
// Collisions: at a collision in an anticollision answer the driver reads the collision position
// (CollReg), keeps the bits before it, takes the `1` branch for the collided bit and asks again with those
// bits (NVB), until one tag is left. CollPos counts from bit 0 of the first FIFO byte, including the
// RxAlign bits of a partial first byte (as NXP's reader library reads the RC52x), so the collided UID bit
// is 8 x (full bytes sent) + CollPos.
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
    EMPTY = 0, // the REQA was not answered: no IDLE tag left in the field
    TAG = 1,   // *uid is filled and the tag is halted
    FAILED = 2, // something answered, but the read did not survive the checks (noise, a lost frame)
    FAULT = 3  // the chip itself does not answer on SPI (unplugged, no power)
  };

  // Pins are fixed in pins.h; SPI uses the hardware SPI pins.
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
  // One inventory step (see above): REQA, select one tag, HLTA. Blocks the caller for the whole read (see
  // hardware/protocol.md, Timing, for measured figures), ~1.3 ms when no tag answers (the 1 ms timeout).
  Step inventory_step(TagUid *uid);
  // HLTA to the tag that is currently selected (after a step that read a tag twice in one cycle).
  void halt();
  uint8_t version();

private:
  enum Status : uint8_t { ST_OK, ST_TIMEOUT, ST_COLLISION, ST_ERROR };
  void select(bool on);
  uint8_t read_reg(uint8_t reg);
  void write_reg(uint8_t reg, uint8_t value);
  Status transceive(const uint8_t *tx, uint8_t tx_len, uint8_t bit_framing, uint8_t *rx, uint8_t *rx_len,
                    uint8_t *rx_last_bits, uint8_t *coll_pos);
  bool select_level(uint8_t sel, uint8_t cl[4], uint8_t *sak);
  static bool version_ok(uint8_t v) { return v != 0x00 && v != 0xFF; }
  void start_reset();    // RST pulse; the chip then starts its oscillator
  Health finish_reset(); // STARTING until CommandReg.PowerDown clears, then configures: UP (or DOWN)
  void configure();

  uint8_t ss_;
  uint8_t rst_;
  bool ready_;
  bool starting_ = false;
  uint32_t start_us_ = 0;
#if defined(__AVR__)
  volatile uint8_t *ss_port_ = nullptr;
  uint8_t ss_mask_ = 0;
#endif
};

#endif
