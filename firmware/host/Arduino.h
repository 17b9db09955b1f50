// A small fake of the Arduino API for the host tests (ArduinoJson's approach): just enough for the
// firmware sources to compile and run unchanged on the PC. The test side controls it through fake.h.
//
// - Clock: a 64-bit microsecond counter; micros()/millis() return its low 32 bits, so the 2^32 wrap the
//   real board hits after ~71.6 minutes can be reached in a test by setting the clock.
// - Pins: levels and modes in arrays; an optional hook sees every digitalWrite (device models use it).
// - Interrupts: attachInterrupt() records the ISR; fake::edge() runs it (or defers it while interrupts are
//   disabled, as the AVR latches the flag). noInterrupts()/interrupts() are tracked.
// - Serial: input queue and captured output.
#ifndef ZT_FAKE_ARDUINO_H
#define ZT_FAKE_ARDUINO_H

#include <stddef.h>
#include <stdint.h>

typedef uint8_t byte;

#define HIGH 0x1
#define LOW 0x0
#define INPUT 0x0
#define OUTPUT 0x1
#define INPUT_PULLUP 0x2
#define CHANGE 1
#define FALLING 2
#define RISING 3
#define MSBFIRST 1
#define LSBFIRST 0

uint32_t micros();
uint32_t millis();
void delay(uint32_t ms);
void delayMicroseconds(unsigned int us);

void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t level);
int digitalRead(uint8_t pin);

int digitalPinToInterrupt(uint8_t pin);
void attachInterrupt(uint8_t irq, void (*isr)(), int mode);
void detachInterrupt(uint8_t irq);
void noInterrupts();
void interrupts();

class FakeSerial {
public:
  void begin(unsigned long baud);
  int available();
  int read();
  size_t write(uint8_t c);
  size_t write(const char *buf, size_t len);
  size_t write(const uint8_t *buf, size_t len) { return write((const char *)buf, len); }
  size_t print(const char *s);
};

extern FakeSerial Serial;

#endif
