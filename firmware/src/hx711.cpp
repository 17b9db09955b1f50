#include "hx711.h"

#include <Arduino.h>

int32_t hx711_sign_extend(uint32_t raw24) {
  raw24 &= 0xFFFFFFUL;
  if (raw24 & 0x800000UL) return (int32_t)(raw24 | 0xFF000000UL);
  return (int32_t)raw24;
}

void Hx711::begin(uint8_t dout_pin, uint8_t sck_pin) {
  dout_ = dout_pin;
  sck_ = sck_pin;
  pinMode(dout_, INPUT_PULLUP); // an unplugged HX711 then reads "never ready" instead of random data
  pinMode(sck_, OUTPUT);
  digitalWrite(sck_, LOW); // SCK low = powered up
}

bool Hx711::ready() const { return digitalRead(dout_) == LOW; }

int32_t Hx711::read() {
#if defined(__AVR__)
  // Direct port access: digitalWrite() costs ~4 us per call, which would make the whole read ~250 us.
  volatile uint8_t *sck_port = portOutputRegister(digitalPinToPort(sck_));
  volatile uint8_t *dout_port = portInputRegister(digitalPinToPort(dout_));
  const uint8_t sck_mask = digitalPinToBitMask(sck_);
  const uint8_t dout_mask = digitalPinToBitMask(dout_);
#define ZT_SCK_HIGH() (*sck_port |= sck_mask)
#define ZT_SCK_LOW() (*sck_port &= (uint8_t)~sck_mask)
#define ZT_DOUT() ((*dout_port & dout_mask) != 0)
#else
#define ZT_SCK_HIGH() digitalWrite(sck_, HIGH)
#define ZT_SCK_LOW() digitalWrite(sck_, LOW)
#define ZT_DOUT() (digitalRead(dout_) == HIGH)
#endif
  uint32_t value = 0;
  for (uint8_t i = 0; i < 25; i++) { // 24 data bits + 1 pulse selecting channel A, gain 128
    noInterrupts();
    ZT_SCK_HIGH();
    delayMicroseconds(1); // DOUT is valid 0.1 us after the rising edge; the high phase must be >= 0.2 us
    bool bit = ZT_DOUT();
    ZT_SCK_LOW();
    interrupts();
    if (i < 24) value = (value << 1) | (bit ? 1UL : 0UL);
    delayMicroseconds(1); // low phase >= 0.2 us
  }
#undef ZT_SCK_HIGH
#undef ZT_SCK_LOW
#undef ZT_DOUT
  return hx711_sign_extend(value);
}
