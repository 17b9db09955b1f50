#include <Arduino.h>
#include <SPI.h>
#include <avr/eeprom.h>
#include <string.h>

#include "fake.h"

namespace fake {

uint64_t now_us;
uint8_t pin_level[kPins];
uint8_t pin_mode[kPins];
bool irq_enabled;
int irq_disable_count;
uint8_t eeprom[kEepromSize];
std::deque<uint8_t> serial_in;
std::string serial_out;
uint32_t eeprom_writes;
bool eeprom_broken;
std::function<void(uint8_t, uint8_t)> on_write;
std::function<uint8_t(uint8_t)> spi_device;
std::function<void()> on_time;

static void (*isr_table[8])();
static int isr_pin[8];
static int isr_mode[8];
static bool isr_pending[8];

void reset() {
  now_us = 0;
  memset(pin_level, 0, sizeof(pin_level));
  memset(pin_mode, 0, sizeof(pin_mode));
  irq_enabled = true;
  irq_disable_count = 0;
  memset(eeprom, 0xFF, sizeof(eeprom)); // a blank AVR EEPROM reads 0xFF
  serial_in.clear();
  serial_out.clear();
  eeprom_writes = 0;
  eeprom_broken = false;
  on_write = nullptr;
  spi_device = nullptr;
  on_time = nullptr;
  for (int i = 0; i < 8; i++) {
    isr_table[i] = nullptr;
    isr_pin[i] = -1;
    isr_pending[i] = false;
  }
}

void advance_us(uint64_t us) {
  now_us += us;
  if (on_time) on_time();
}

static void run_pending_isrs() {
  for (int i = 0; i < 8; i++) {
    if (isr_pending[i] && isr_table[i] && irq_enabled) {
      isr_pending[i] = false;
      irq_enabled = false; // the AVR runs an ISR with interrupts off
      isr_table[i]();
      irq_enabled = true;
    }
  }
}

void set_input(uint8_t pin, uint8_t level, bool edge_interrupt) {
  bool changed = pin_level[pin] != level;
  pin_level[pin] = level;
  if (!changed || !edge_interrupt) return;
  for (int i = 0; i < 8; i++) {
    bool wanted = isr_mode[i] == CHANGE || (isr_mode[i] == FALLING && level == LOW) || (isr_mode[i] == RISING && level == HIGH);
    if (isr_pin[i] == pin && isr_table[i] && wanted) isr_pending[i] = true;
  }
  run_pending_isrs();
}

void send_serial(const std::string &s) {
  for (char c : s) serial_in.push_back((uint8_t)c);
}

std::string take_serial() {
  std::string s = serial_out;
  serial_out.clear();
  return s;
}

} // namespace fake

uint32_t micros() { return (uint32_t)fake::now_us; }
uint32_t millis() { return (uint32_t)(fake::now_us / 1000); }
void delay(uint32_t ms) { fake::advance_us((uint64_t)ms * 1000); }
void delayMicroseconds(unsigned int us) { fake::advance_us(us); }

void pinMode(uint8_t pin, uint8_t mode) {
  fake::pin_mode[pin] = mode;
  if (mode == INPUT_PULLUP && fake::pin_level[pin] == LOW) fake::pin_level[pin] = HIGH;
}

void digitalWrite(uint8_t pin, uint8_t level) {
  fake::pin_level[pin] = level ? HIGH : LOW;
  if (fake::on_write) fake::on_write(pin, fake::pin_level[pin]);
}

int digitalRead(uint8_t pin) { return fake::pin_level[pin]; }

int digitalPinToInterrupt(uint8_t pin) { return pin == 2 ? 0 : pin == 3 ? 1 : -1; }

void attachInterrupt(uint8_t irq, void (*isr)(), int mode) {
  if (irq >= 8) return;
  fake::isr_mode[irq] = mode;
  fake::isr_table[irq] = isr;
  fake::isr_pin[irq] = irq == 0 ? 2 : irq == 1 ? 3 : -1;
}

void detachInterrupt(uint8_t irq) {
  if (irq < 8) fake::isr_table[irq] = nullptr;
}

void noInterrupts() {
  fake::irq_enabled = false;
  fake::irq_disable_count++;
}

void interrupts() {
  fake::irq_enabled = true;
  fake::run_pending_isrs();
}

FakeSerial Serial;

void FakeSerial::begin(unsigned long baud) { (void)baud; }
int FakeSerial::available() { return (int)fake::serial_in.size(); }
int FakeSerial::read() {
  if (fake::serial_in.empty()) return -1;
  uint8_t c = fake::serial_in.front();
  fake::serial_in.pop_front();
  return c;
}
size_t FakeSerial::write(uint8_t c) {
  fake::serial_out.push_back((char)c);
  return 1;
}
size_t FakeSerial::write(const char *buf, size_t len) {
  fake::serial_out.append(buf, len);
  return len;
}
size_t FakeSerial::print(const char *s) { return write(s, strlen(s)); }

SPIClass SPI;
void SPIClass::begin() {}
void SPIClass::beginTransaction(const SPISettings &settings) { (void)settings; }
void SPIClass::endTransaction() {}
// Each byte takes its time on the wire (2 us at 4 MHz), so a driver that polls a dead chip sees time pass.
uint8_t SPIClass::transfer(uint8_t out) {
  fake::advance_us(2);
  return fake::spi_device ? fake::spi_device(out) : 0xFF;
}

void eeprom_read_block(void *dst, const void *src, size_t n) {
  memcpy(dst, fake::eeprom + (uintptr_t)src, n);
}

void eeprom_update_block(const void *src, void *dst, size_t n) {
  const uint8_t *s = (const uint8_t *)src;
  for (size_t i = 0; i < n; i++) {
    uint8_t &cell = fake::eeprom[(uintptr_t)dst + i];
    if (cell != s[i] && !fake::eeprom_broken) {
      cell = s[i];
      fake::eeprom_writes++;
    }
  }
}
