// Device models for the host tests, driven through the Arduino fake's pin and SPI hooks:
//  - FakeHx711: converts every 100 ms (10 SPS), shifts its value out on SCK rising edges and records any
//    clock pulse that ran with interrupts enabled or stayed high > 60 us (which powers a real HX711 down).
//  - FakeMfrc522: the register interface of the MFRC522 (FIFO, ComIrq, BitFraming/StartSend, Transceive)
//    with at most one ISO 14443A tag in the field answering WUPA, anticollision (NVB 0x20), SELECT and HLTA.
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

struct FakeMfrc522 {
  uint8_t ss = 0;
  bool connected = true;
  std::vector<uint8_t> uid; // empty: no tag in the field
  int selects = 0;          // completed SELECTs (full UID reads)
  int halts = 0;

  void attach(uint8_t ss_pin);
  void on_write(uint8_t pin, uint8_t level);
  uint8_t spi(uint8_t out);

private:
  uint8_t regs_[64] = {0};
  std::vector<uint8_t> fifo_;
  bool halted_ = false;
  int phase_ = 0;
  uint8_t addr_ = 0;
  bool read_ = false;
  uint8_t read_reg(uint8_t reg);
  void write_reg(uint8_t reg, uint8_t value);
  void transceive();
  bool respond(const std::vector<uint8_t> &frame, uint8_t last_bits, std::vector<uint8_t> *out);
  std::vector<uint8_t> cascade(int level) const;
};

#endif
