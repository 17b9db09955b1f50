// Device models for the host tests, driven through the Arduino fake's pin and SPI hooks:
//  - FakeHx711: converts every 100 ms (10 SPS), shifts its value out on SCK rising edges and records any
//    clock pulse that ran with interrupts enabled or stayed high > 60 us (which powers a real HX711 down).
//  - FakeMfrc522: the register interface of the MFRC522 (FIFO, ComIrq, ErrorReg, CollReg, BitFraming with
//    StartSend / TxLastBits / RxAlign, TxControl antenna bits, Transceive) with any number of ISO 14443A
//    tags in the field: REQA/WUPA, bit-oriented anticollision with real collisions (the answers of all
//    tags are superposed bit by bit; CollPos counts from bit 0 of the first FIFO byte, RxAlign included),
//    SELECT with CRC_A over cascade levels 1-3, HLTA; a SELECT of another tag, a command of another cascade
//    level or an invalid frame sends a READY tag back to IDLE (READY*: HALT), as in the emulator's model.
//    Switching the antenna off powers every tag down. Untimed: the chip's timer is not modelled here (the
//    emulator's model has it, test/emulator/mfrc522-model.ts).
#ifndef ZT_FAKE_DEVICES_H
#define ZT_FAKE_DEVICES_H

#include <stdint.h>

#include <vector>

struct FakeHx711 {
  uint8_t dout = 0, sck = 0;
  bool connected = true;
  int32_t value = 0;        // the next conversion result (24-bit range)
  uint32_t conversions = 0; // results read out
  int pulses_with_irq_enabled = 0;
  int long_high_pulses = 0;

  void attach(uint8_t dout_pin, uint8_t sck_pin);
  void on_write(uint8_t pin, uint8_t level);
  void on_time();

private:
  bool ready_ = false;
  int bit_ = 0;
  uint32_t shifting_ = 0;
  uint64_t next_conversion_us_ = 100000;
  uint64_t rise_us_ = 0;
};

// One ISO/IEC 14443A tag: the PICC state machine of ISO 14443-3 (IDLE, READY, ACTIVE, HALT, and READY* /
// ACTIVE* for a tag woken from HALT, which falls back to HALT instead of IDLE).
struct FakeTag {
  enum State { IDLE, READY, ACTIVE, HALT };
  std::vector<uint8_t> uid; // 4, 7 or 10 bytes
  State state = IDLE;
  bool from_halt = false; // READY* / ACTIVE*
  int level = 1;          // cascade level being selected
};

struct FakeMfrc522 {
  uint8_t ss = 0;
  bool connected = true;
  std::vector<FakeTag> tags; // the tags in the field
  int selects = 0;           // completed SELECTs (full UID reads)
  int halts = 0;             // HLTAs a tag accepted
  int requests = 0;          // REQA/WUPA frames sent
  int collisions = 0;        // answers in which two tags' bits collided

  void attach(uint8_t ss_pin);
  void on_write(uint8_t pin, uint8_t level);
  uint8_t spi(uint8_t out);

  void place(const std::vector<uint8_t> &uid); // enters the field (powered: IDLE while the field is on)
  void remove(const std::vector<uint8_t> &uid);
  void clear_tags() { tags.clear(); }
  bool field_on() const;

private:
  uint8_t regs_[64] = {0};
  std::vector<uint8_t> fifo_;
  int phase_ = 0;
  uint8_t addr_ = 0;
  bool read_ = false;
  uint8_t read_reg(uint8_t reg);
  void write_reg(uint8_t reg, uint8_t value);
  void transceive();
};

#endif
