// Test-side control of the Arduino fake (Arduino.h, SPI.h, avr/eeprom.h).
#ifndef ZT_FAKE_H
#define ZT_FAKE_H

#include <stdint.h>

#include <deque>
#include <functional>
#include <string>

namespace fake {

const int kPins = 70;
const int kEepromSize = 1024;

extern uint64_t now_us;          // the clock; micros() is its low 32 bits
extern uint8_t pin_level[kPins]; // what digitalRead returns (inputs) / last written level (outputs)
extern uint8_t pin_mode[kPins];
extern bool irq_enabled;
extern int irq_disable_count;     // how many times noInterrupts() was called
extern uint8_t eeprom[kEepromSize];
extern std::deque<uint8_t> serial_in;
extern std::string serial_out;
extern uint32_t eeprom_writes;    // bytes actually changed by eeprom_update_block
extern bool eeprom_broken;        // writes are silently lost (to test read-back verification)

// Called on every digitalWrite (after the level is stored); device models hook in here.
extern std::function<void(uint8_t pin, uint8_t level)> on_write;
// Called for every SPI byte; returns the byte clocked in from the device.
extern std::function<uint8_t(uint8_t out)> spi_device;
// Called by delay()/delayMicroseconds() and whenever time advances (device models may act on time).
extern std::function<void()> on_time;

void reset();                          // everything back to power-on
void advance_us(uint64_t us);          // moves the clock (runs on_time)
void set_input(uint8_t pin, uint8_t level, bool edge_interrupt = true); // drives an input pin
void send_serial(const std::string &s);
std::string take_serial();             // returns and clears the captured output

} // namespace fake

#endif
