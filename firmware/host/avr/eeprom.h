// Fake avr-libc EEPROM access: a 1 KB RAM array (ATmega328P size) that tests can inspect and corrupt.
#ifndef ZT_FAKE_EEPROM_H
#define ZT_FAKE_EEPROM_H

#include <stddef.h>
#include <stdint.h>

void eeprom_read_block(void *dst, const void *src, size_t n);
void eeprom_update_block(const void *src, void *dst, size_t n);

#endif
