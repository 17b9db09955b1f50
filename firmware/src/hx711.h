// HX711 24-bit load-cell ADC, bit-banged.
//
// The HX711 signals a conversion is ready by pulling DOUT low; 24 clock pulses shift the result out MSB
// first, and 1..3 extra pulses select gain/channel for the NEXT conversion (1 extra = channel A, gain 128).
// Holding SCK high for more than 60 us powers the chip down, so an interrupt arriving while SCK is high must
// not stretch the pulse: interrupts are disabled for each high phase (about 1 us) - not for the whole
// 25-pulse read - so the ZAP button's ISR is delayed by at most one pulse, not the whole read.
// At the default RATE pin (low) the HX711 makes 10 conversions per second.
#ifndef ZT_HX711_H
#define ZT_HX711_H

#include <stdint.h>

// Two's-complement 24-bit -> int32_t (pure; 0x800000 is -8388608, 0x7FFFFF is 8388607).
int32_t hx711_sign_extend(uint32_t raw24);

// The 24-bit converter saturates at these two codes (datasheet: "the output is 800000h / 7FFFFFh when the
// input differential signal goes out of the range"): an overloaded cell, or a broken bridge wire that
// leaves an input floating. A railed reading is no weight.
#define HX711_MIN_CODE (-8388608L)
#define HX711_MAX_CODE 8388607L
inline bool hx711_railed(int32_t counts) { return counts == HX711_MIN_CODE || counts == HX711_MAX_CODE; }

class Hx711 {
public:
  void begin(uint8_t dout_pin, uint8_t sck_pin);
  // A conversion is waiting (DOUT low). Never blocks.
  bool ready() const;
  // Reads the waiting conversion (call only when ready()); selects channel A, gain 128 for the next one.
  int32_t read();

private:
  uint8_t dout_;
  uint8_t sck_;
};

#endif
