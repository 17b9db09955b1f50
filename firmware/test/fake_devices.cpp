#include "fake_devices.h"

#include <Arduino.h>

#include "fake.h"
#include "mfrc522.h"

// ------------------------------------------------------------------------------------------------ HX711

void FakeHx711::attach(uint8_t dout_pin, uint8_t sck_pin) {
  dout = dout_pin;
  sck = sck_pin;
  fake::pin_level[dout] = HIGH; // not ready
}

void FakeHx711::on_time() {
  if (!connected) {
    fake::pin_level[dout] = HIGH; // the station's pull-up
    return;
  }
  if (!ready_ && fake::now_us >= next_conversion_us_) {
    ready_ = true;
    bit_ = 0;
    shifting_ = (uint32_t)value & 0xFFFFFFu;
    fake::pin_level[dout] = LOW;
  }
}

void FakeHx711::on_write(uint8_t pin, uint8_t level) {
  if (pin != sck || !connected) return;
  if (level == HIGH) {
    rise_us_ = fake::now_us;
    if (fake::irq_enabled) pulses_with_irq_enabled++;
    if (!ready_) return;
    if (bit_ < 24) fake::pin_level[dout] = (shifting_ >> (23 - bit_)) & 1 ? HIGH : LOW;
    bit_++;
    if (bit_ == 25) { // gain pulse: conversion consumed, DOUT high until the next one
      fake::pin_level[dout] = HIGH;
      ready_ = false;
      conversions++;
      next_conversion_us_ = fake::now_us + 100000;
    }
  } else if (fake::now_us - rise_us_ > 60) {
    long_high_pulses++;
  }
}

// ---------------------------------------------------------------------------------------------- MFRC522

namespace {
enum : uint8_t {
  COMMAND = 0x01, COM_IRQ = 0x04, ERROR = 0x06, FIFO_DATA = 0x09, FIFO_LEVEL = 0x0A, CONTROL = 0x0C,
  BIT_FRAMING = 0x0D, VERSION = 0x37,
};
}

void FakeMfrc522::attach(uint8_t ss_pin) { ss = ss_pin; }

void FakeMfrc522::on_write(uint8_t pin, uint8_t level) {
  if (pin == ss && level == HIGH) phase_ = 0; // end of an SPI transaction
}

uint8_t FakeMfrc522::spi(uint8_t out) {
  if (!connected) return 0x00; // MISO pulled low on a missing module: VersionReg reads 0x00
  if (fake::pin_level[ss] != LOW) return 0xFF;
  if (phase_ == 0) {
    addr_ = (uint8_t)((out >> 1) & 0x3F);
    read_ = (out & 0x80) != 0;
    phase_ = 1;
    return 0;
  }
  if (read_) return read_reg(addr_);
  write_reg(addr_, out);
  return 0;
}

uint8_t FakeMfrc522::read_reg(uint8_t reg) {
  switch (reg) {
  case VERSION: return 0x92;
  case FIFO_LEVEL: return (uint8_t)fifo_.size();
  case FIFO_DATA: {
    if (fifo_.empty()) return 0;
    uint8_t v = fifo_.front();
    fifo_.erase(fifo_.begin());
    return v;
  }
  default: return regs_[reg];
  }
}

void FakeMfrc522::write_reg(uint8_t reg, uint8_t value) {
  switch (reg) {
  case FIFO_DATA: fifo_.push_back(value); return;
  case FIFO_LEVEL:
    if (value & 0x80) fifo_.clear();
    return;
  case COM_IRQ: // Set1 = 0: the bits written as 1 are cleared
    if (value & 0x80) regs_[COM_IRQ] |= (uint8_t)(value & 0x7F);
    else regs_[COM_IRQ] &= (uint8_t)~value;
    return;
  case BIT_FRAMING:
    regs_[BIT_FRAMING] = value;
    if ((value & 0x80) && regs_[COMMAND] == 0x0C) transceive();
    return;
  default: regs_[reg] = value;
  }
}

std::vector<uint8_t> FakeMfrc522::cascade(int level) const {
  std::vector<uint8_t> cl;
  if (uid.size() == 4) cl.assign(uid.begin(), uid.end());
  else if (level == 1) cl = {0x88, uid[0], uid[1], uid[2]};
  else cl.assign(uid.begin() + 3, uid.end());
  cl.push_back((uint8_t)(cl[0] ^ cl[1] ^ cl[2] ^ cl[3]));
  return cl;
}

bool FakeMfrc522::respond(const std::vector<uint8_t> &f, uint8_t last_bits, std::vector<uint8_t> *out) {
  if (uid.empty() || f.empty()) return false;
  if (last_bits == 7 && f.size() == 1 && (f[0] == 0x52 || (f[0] == 0x26 && !halted_))) {
    halted_ = false;
    *out = {(uint8_t)(uid.size() == 4 ? 0x04 : 0x44), 0x00};
    return true;
  }
  if (halted_ || f.size() < 2) return false;
  int level = f[0] == 0x93 ? 1 : f[0] == 0x95 ? 2 : 0;
  if (level == 0 && f[0] == 0x50) {
    halted_ = true;
    halts++;
    return false;
  }
  if (level == 0 || (level == 2 && uid.size() == 4)) return false;
  if (f[1] == 0x20) {
    *out = cascade(level);
    return true;
  }
  if (f[1] == 0x70 && f.size() == 9) {
    uint16_t crc = crc_a(f.data(), 7);
    if (f[7] != (crc & 0xFF) || f[8] != (crc >> 8)) return false;
    std::vector<uint8_t> cl = cascade(level);
    for (int i = 0; i < 5; i++) {
      if (f[2 + i] != cl[i]) return false;
    }
    uint8_t sak = (uid.size() == 7 && level == 1) ? 0x04 : 0x08;
    if (sak == 0x08) selects++;
    uint16_t sc = crc_a(&sak, 1);
    *out = {sak, (uint8_t)(sc & 0xFF), (uint8_t)(sc >> 8)};
    return true;
  }
  return false;
}

void FakeMfrc522::transceive() {
  std::vector<uint8_t> frame = fifo_;
  fifo_.clear();
  std::vector<uint8_t> answer;
  regs_[ERROR] = 0;
  regs_[CONTROL] = 0;
  if (respond(frame, regs_[BIT_FRAMING] & 0x07, &answer)) {
    fifo_ = answer;
    regs_[COM_IRQ] |= 0x30; // RxIRq | IdleIRq
  } else {
    regs_[COM_IRQ] |= 0x01; // TimerIRq: nobody answered
    fake::advance_us(2000);  // the chip's 2 ms timeout
  }
}
