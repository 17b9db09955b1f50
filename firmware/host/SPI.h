// Fake SPI: every transfer() goes to fake::spi_device (a device model in the test), with the level of the
// chip-select pins visible through digitalRead on the fake pins.
#ifndef ZT_FAKE_SPI_H
#define ZT_FAKE_SPI_H

#include <stdint.h>

#define SPI_MODE0 0x00

class SPISettings {
public:
  SPISettings(uint32_t clock, uint8_t bit_order, uint8_t data_mode)
      : clock_(clock), bit_order_(bit_order), data_mode_(data_mode) {}
  uint32_t clock_;
  uint8_t bit_order_;
  uint8_t data_mode_;
};

class SPIClass {
public:
  void begin();
  void beginTransaction(const SPISettings &settings);
  void endTransaction();
  uint8_t transfer(uint8_t out);
};

extern SPIClass SPI;

#endif
