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
  COMMAND = 0x01, COM_IRQ = 0x04, ERROR_REG = 0x06, FIFO_DATA = 0x09, FIFO_LEVEL = 0x0A, CONTROL = 0x0C,
  BIT_FRAMING = 0x0D, COLL = 0x0E, TX_CONTROL = 0x14, T_MODE = 0x2A, T_PRESCALER = 0x2B, T_RELOAD_H = 0x2C,
  T_RELOAD_L = 0x2D, VERSION = 0x37,
};

typedef std::vector<bool> Bits; // LSB of each byte first, as ISO 14443A sends them

Bits to_bits(const std::vector<uint8_t> &bytes, size_t nbits) {
  Bits b;
  for (size_t i = 0; i < nbits; i++) b.push_back((bytes[i / 8] >> (i % 8)) & 1);
  return b;
}

// The 40 bits of a cascade level of this tag (CLn: cascade tag 0x88 or UID bytes, then BCC).
std::vector<uint8_t> cascade(const FakeTag &t, int level) {
  int levels = (int)(t.uid.size() - 1) / 3; // 4 -> 1, 7 -> 2, 10 -> 3
  std::vector<uint8_t> cl;
  size_t from = (size_t)(level - 1) * 3;
  if (level < levels) cl = {0x88, t.uid[from], t.uid[from + 1], t.uid[from + 2]};
  else cl.assign(t.uid.begin() + (long)from, t.uid.begin() + (long)from + 4);
  cl.push_back((uint8_t)(cl[0] ^ cl[1] ^ cl[2] ^ cl[3]));
  return cl;
}

void to_idle(FakeTag &t) { // an unexpected command: back to IDLE (or HALT for READY*/ACTIVE*), no answer
  if (t.state == FakeTag::READY || t.state == FakeTag::ACTIVE) t.state = t.from_halt ? FakeTag::HALT : FakeTag::IDLE;
}

// What one tag answers to a frame of `nbits` bits (false: nothing). Counts into *chip.
bool respond(FakeTag &t, const std::vector<uint8_t> &f, size_t nbits, Bits *out, FakeMfrc522 *chip) {
  if (f.empty()) return false;
  if (nbits == 7) { // short frame: REQA / WUPA
    uint8_t cmd = (uint8_t)(f[0] & 0x7F);
    bool wupa = cmd == 0x52;
    if (cmd != 0x26 && !wupa) return false;
    if (t.state == FakeTag::IDLE || (wupa && t.state == FakeTag::HALT)) {
      t.from_halt = t.state == FakeTag::HALT;
      t.state = FakeTag::READY;
      t.level = 1;
      uint8_t atqa0 = t.uid.size() == 4 ? 0x04 : t.uid.size() == 7 ? 0x44 : 0x84;
      *out = to_bits({atqa0, 0x00}, 16);
      return true;
    }
    to_idle(t);
    return false;
  }
  if (t.state == FakeTag::IDLE || t.state == FakeTag::HALT) return false; // only REQA/WUPA reach them
  if (nbits == 32 && f[0] == 0x50 && f[1] == 0x00) { // HLTA
    uint16_t crc = crc_a(f.data(), 2);
    if (t.state == FakeTag::ACTIVE && f[2] == (crc & 0xFF) && f[3] == (crc >> 8)) {
      t.state = FakeTag::HALT;
      chip->halts++;
      return false;
    }
    to_idle(t);
    return false;
  }
  int level = f[0] == 0x93 ? 1 : f[0] == 0x95 ? 2 : f[0] == 0x97 ? 3 : 0;
  if (level == 0 || t.state != FakeTag::READY || nbits < 16 || level != t.level) {
    to_idle(t); // not a command for this state (another cascade level too): back to IDLE / HALT
    return false;
  }
  uint8_t nvb = f[1];
  size_t sent = (size_t)((nvb >> 4) - 2) * 8 + (nvb & 0x07); // UID CLn bits the reader sent
  std::vector<uint8_t> cl = cascade(t, level);
  if (nvb == 0x70) { // SELECT
    uint16_t crc = crc_a(f.data(), 7);
    if (nbits != 72 || f[7] != (crc & 0xFF) || f[8] != (crc >> 8)) { // an invalid frame
      to_idle(t);
      return false;
    }
    for (int i = 0; i < 5; i++) {
      if (f[2 + (size_t)i] != cl[(size_t)i]) { // another tag's UID: not selected, back to IDLE / HALT
        to_idle(t);
        return false;
      }
    }
    bool complete = level == (int)(t.uid.size() - 1) / 3;
    uint8_t sak = complete ? 0x08 : 0x04;
    if (complete) {
      t.state = FakeTag::ACTIVE; // ACTIVE* when from_halt
      chip->selects++;
    } else {
      t.level++;
    }
    uint16_t sc = crc_a(&sak, 1);
    *out = to_bits({sak, (uint8_t)(sc & 0xFF), (uint8_t)(sc >> 8)}, 24);
    return true;
  }
  if ((nvb & 0x0F) > 7 || nvb < 0x20 || sent > 32 || nbits != 16 + sent) {
    to_idle(t);
    return false;
  }
  Bits mine = to_bits(cl, 40);
  Bits theirs = to_bits(std::vector<uint8_t>(f.begin() + 2, f.end()), sent);
  for (size_t i = 0; i < sent; i++) {
    if (mine[i] != theirs[i]) return false; // not our prefix: silent, still READY
  }
  out->assign(mine.begin() + (long)sent, mine.end());
  return true;
}
} // namespace

void FakeMfrc522::attach(uint8_t ss_pin) { ss = ss_pin; }

void FakeMfrc522::on_write(uint8_t pin, uint8_t level) {
  if (pin == ss && level == HIGH) phase_ = 0; // end of an SPI transaction
}

bool FakeMfrc522::field_on() const { return (regs_[TX_CONTROL] & 0x03) != 0; }

void FakeMfrc522::place(const std::vector<uint8_t> &uid) {
  FakeTag t;
  t.uid = uid;
  tags.push_back(t);
}

void FakeMfrc522::remove(const std::vector<uint8_t> &uid) {
  for (size_t i = 0; i < tags.size(); i++) {
    if (tags[i].uid == uid) {
      tags.erase(tags.begin() + (long)i);
      return;
    }
  }
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
  case COMMAND:
    regs_[COMMAND] = value;
    if ((value & 0x0F) == 0x0F) { // SoftReset: antenna off, registers back to their reset values
      for (uint8_t &r : regs_) r = 0;
      regs_[COLL] = 0xA0;
      for (FakeTag &t : tags) t.state = FakeTag::IDLE;
    }
    return;
  case BIT_FRAMING:
    regs_[BIT_FRAMING] = (uint8_t)(value & 0x7F);
    if ((value & 0x80) && regs_[COMMAND] == 0x0C) transceive();
    return;
  case COLL: regs_[COLL] = (uint8_t)((regs_[COLL] & 0x7F) | (value & 0x80)); return;
  case TX_CONTROL:
    regs_[TX_CONTROL] = value;
    if ((value & 0x03) == 0) {
      for (FakeTag &t : tags) t.state = FakeTag::IDLE; // no field, no power: every tag resets
    }
    return;
  default: regs_[reg] = value;
  }
}

void FakeMfrc522::transceive() {
  std::vector<uint8_t> frame = fifo_;
  fifo_.clear();
  uint8_t tx_last = regs_[BIT_FRAMING] & 0x07, rx_align = (regs_[BIT_FRAMING] >> 4) & 0x07;
  size_t nbits = frame.empty() ? 0 : (frame.size() - 1) * 8 + (tx_last ? tx_last : 8);
  if (nbits == 7) requests++;
  regs_[ERROR_REG] = 0;
  regs_[CONTROL] = 0;
  std::vector<Bits> answers;
  if (field_on()) {
    for (FakeTag &t : tags) {
      Bits b;
      if (respond(t, frame, nbits, &b, this)) answers.push_back(b);
    }
  }
  if (answers.empty()) {
    regs_[COM_IRQ] |= 0x40 | 0x01; // TxIRq (sent), TimerIRq: nobody answered
    uint32_t presc = ((uint32_t)(regs_[T_MODE] & 0x0F) << 8) | regs_[T_PRESCALER];
    uint32_t reload = ((uint32_t)regs_[T_RELOAD_H] << 8) | regs_[T_RELOAD_L];
    fake::advance_us((2 * presc + 1) * (reload + 1) * 1000 / 13560); // the chip's timeout
    return;
  }
  // The answers superposed: equal bits read fine, differing bits are a collision.
  size_t len = 0;
  for (const Bits &b : answers) len = b.size() > len ? b.size() : len;
  Bits got(len, false);
  long coll = -1;
  for (size_t i = 0; i < len; i++) {
    int ones = 0, zeros = 0;
    for (const Bits &b : answers) {
      if (i < b.size()) (b[i] ? ones : zeros)++;
    }
    if (ones && zeros && coll < 0) coll = (long)i;
    got[i] = ones > 0;
  }
  if (coll >= 0) {
    collisions++;
    regs_[ERROR_REG] = 0x08 | 0x02; // CollErr, and the collided byte's parity fails too (worst case)
    size_t pos = rx_align + (size_t)coll + 1; // 1-based from bit 0 of the first FIFO byte
    regs_[COLL] = (uint8_t)((regs_[COLL] & 0x80) | (pos > 32 ? 0x20 : (pos & 0x1F)));
    if (!(regs_[COLL] & 0x80)) {
      for (size_t i = (size_t)coll; i < len; i++) got[i] = false; // ValuesAfterColl = 0
    }
  }
  size_t total = rx_align + len;
  std::vector<uint8_t> bytes((total + 7) / 8, 0);
  for (size_t i = 0; i < len; i++) {
    if (got[i]) bytes[(rx_align + i) / 8] |= (uint8_t)(1 << ((rx_align + i) % 8));
  }
  fifo_ = bytes;
  regs_[CONTROL] = (uint8_t)(total % 8);
  regs_[COM_IRQ] |= 0x40 | 0x30; // TxIRq, RxIRq | IdleIRq
}
