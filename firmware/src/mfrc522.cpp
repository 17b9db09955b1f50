#include "mfrc522.h"

#include <Arduino.h>
#include <SPI.h>
#include <string.h>

#include "pins.h"

// Registers (MFRC522 datasheet, section 9).
enum : uint8_t {
  REG_COMMAND = 0x01,
  REG_COM_IRQ = 0x04,
  REG_ERROR = 0x06,
  REG_FIFO_DATA = 0x09,
  REG_FIFO_LEVEL = 0x0A,
  REG_CONTROL = 0x0C,
  REG_BIT_FRAMING = 0x0D,
  REG_COLL = 0x0E,
  REG_MODE = 0x11,
  REG_TX_MODE = 0x12,
  REG_RX_MODE = 0x13,
  REG_TX_CONTROL = 0x14,
  REG_TX_ASK = 0x15,
  REG_T_MODE = 0x2A,
  REG_T_PRESCALER = 0x2B,
  REG_T_RELOAD_H = 0x2C,
  REG_T_RELOAD_L = 0x2D,
  REG_VERSION = 0x37,
};

enum : uint8_t { CMD_IDLE = 0x00, CMD_TRANSCEIVE = 0x0C, CMD_SOFT_RESET = 0x0F };

// ControlReg: writing 1 to TStopNow stops the timer at once (no TimerIRq); bits 2-0 read RxLastBits.
#define CONTROL_TSTOP_NOW 0x80

// ErrorReg bits.
enum : uint8_t { ERR_PROTOCOL = 0x01, ERR_PARITY = 0x02, ERR_COLL = 0x08, ERR_BUFFER_OVFL = 0x10 };

// PICC commands (ISO/IEC 14443-3).
enum : uint8_t {
  PICC_REQA = 0x26, PICC_WUPA = 0x52, PICC_SEL_CL1 = 0x93, PICC_SEL_CL2 = 0x95, PICC_SEL_CL3 = 0x97, PICC_HLTA = 0x50
};
#define PICC_CASCADE_TAG 0x88
#define SAK_UID_INCOMPLETE 0x04
#define NVB_SELECT 0x70   // SELECT: all 40 bits (UID CLn + BCC), then CRC_A
#define NVB_32_BITS 0x60  // ANTICOLLISION with all 32 UID bits of the level: the tag answers its BCC

// The chip's own timer bounds the wait for a tag: prescaler 67 -> 13.56 MHz / 135 = 100 kHz (9.96 us a
// tick), reload 16 -> 169 us, started automatically at the end of each transmission (TAuto) and stopped by
// the 5th bit of an answer. Every answer of a type A tag to REQA/WUPA/ANTICOLLISION/SELECT starts after the
// fixed frame delay (n = 9: 1172/fc or 1236/fc, 86-91 us), so its 5th bit is in by ~138 us: 169 us leaves
// 30 us of margin and makes an empty poll ~0.3 ms (it was 1 ms). HLTA is never answered and never waited
// for. The micros() guard below only catches a dead chip.
#define RFID_TIMER_PRESCALER 67
#define RFID_TIMER_RELOAD 16
#define RFID_GUARD_US 3000UL // the longest frame (SELECT + SAK) is ~1.2 ms on the air
#define T_MODE_VALUE 0x80 // TAuto: the timer starts at the end of every transmission
// CommandReg.PowerDown: 1 while the chip wakes up after a reset (the oscillator starting).
#define COMMAND_POWER_DOWN 0x10
// How long a reset may take before the chip counts as absent (its crystal's start-up; typically ~1 ms).
#define RFID_STARTUP_TIMEOUT_US 50000UL

static const SPISettings kSpi(4000000, MSBFIRST, SPI_MODE0); // the chip allows 10 MHz; 4 MHz for long wires

uint16_t crc_a(const uint8_t *data, uint8_t len) {
  uint16_t crc = 0x6363;
  for (uint8_t i = 0; i < len; i++) {
    uint8_t ch = (uint8_t)(data[i] ^ (uint8_t)(crc & 0xFF));
    ch = (uint8_t)(ch ^ (uint8_t)(ch << 4));
    crc = (uint16_t)((crc >> 8) ^ ((uint16_t)ch << 8) ^ ((uint16_t)ch << 3) ^ ((uint16_t)ch >> 4));
  }
  return crc;
}

// SS: on the AVR a single sbi/cbi on PORTB (the pin is fixed in pins.h: D10 = PB2 on the 328P, D53 = PB0 on
// the Mega), atomic, so no interrupt lock; digitalWrite costs ~4 us and a presence check makes ~50 register
// accesses. The host fake goes through digitalWrite, where its device model listens.
#if defined(__AVR__)
#if defined(__AVR_ATmega2560__) || defined(__AVR_ATmega1280__)
#define RFID_SS_PORTB_BIT 0
static_assert(PIN_RFID_SS == 53, "mfrc522.cpp drives RFID_SS as PB0");
#else
#define RFID_SS_PORTB_BIT 2
static_assert(PIN_RFID_SS == 10, "mfrc522.cpp drives RFID_SS as PB2");
#endif
#endif

void Mfrc522::select(bool on) {
#if defined(__AVR__)
  if (on) PORTB &= (uint8_t)~_BV(RFID_SS_PORTB_BIT);
  else PORTB |= _BV(RFID_SS_PORTB_BIT);
#else
  digitalWrite(ss_, on ? LOW : HIGH);
#endif
}

// One SPI byte. The MFRC522 is the only device on the bus, so the bus is set up once (begin()) instead of a
// beginTransaction()/endTransaction() around every register access, and on the AVR the byte goes straight
// through SPDR: a register access takes ~7 us instead of ~16 us, and a presence check makes ~50 of them.
#if defined(__AVR__)
static inline __attribute__((always_inline)) uint8_t spi_byte(uint8_t v) {
  SPDR = v;
  asm volatile("nop"); // the SPIF wait below would otherwise start one cycle early (as the core's SPI.transfer)
  while (!(SPSR & _BV(SPIF))) {
  }
  return SPDR;
}
#else
static inline uint8_t spi_byte(uint8_t v) { return SPI.transfer(v); }
#endif

uint8_t Mfrc522::read_reg(uint8_t reg) {
  select(true);
  spi_byte((uint8_t)(0x80 | (reg << 1)));
  uint8_t v = spi_byte(0);
  select(false);
  return v;
}

void Mfrc522::write_reg(uint8_t reg, uint8_t value) {
  select(true);
  spi_byte((uint8_t)((reg << 1) & 0x7E));
  spi_byte(value);
  select(false);
}

// The SPI burst modes of the datasheet (§8.1.2.1/2): after one address byte every byte written goes to that
// register (the FIFO), and for a read each byte sent is the next address, the last one 0x00.
void Mfrc522::write_fifo(const uint8_t *data, uint8_t n) {
  select(true);
  spi_byte((uint8_t)((REG_FIFO_DATA << 1) & 0x7E));
  for (uint8_t i = 0; i < n; i++) spi_byte(data[i]);
  select(false);
}

void Mfrc522::read_fifo(uint8_t *data, uint8_t n) {
  if (n == 0) return;
  const uint8_t addr = (uint8_t)(0x80 | (REG_FIFO_DATA << 1));
  select(true);
  spi_byte(addr);
  for (uint8_t i = 0; i < n; i++) data[i] = spi_byte(i + 1 < n ? addr : 0);
  select(false);
}

uint8_t Mfrc522::version() { return read_reg(REG_VERSION); }

bool Mfrc522::begin() {
  pinMode(ss_, OUTPUT);
  digitalWrite(ss_, HIGH);
  SPI.begin();
  SPI.beginTransaction(kSpi); // for good: the reader is the only SPI device (see spi_byte)
  pinMode(rst_, OUTPUT);
  start_reset();
  Health h;
  while ((h = finish_reset()) == STARTING) {
  }
  return h == UP;
}

// A hard reset (RST low > 100 ns): every register back to its reset value, antenna off. The chip then
// starts its oscillator; CommandReg.PowerDown reads 1 until it is up (datasheet §8.8.2: the crystal's
// start-up time + 37.74 us). Instead of a fixed delay (the usual 2 x 50 ms), finish_reset() polls that bit,
// so a loop pass never waits for it.
void Mfrc522::start_reset() {
  digitalWrite(rst_, LOW);
  delayMicroseconds(2);
  digitalWrite(rst_, HIGH);
  ready_ = false;
  starting_ = true;
  start_us_ = micros();
}

Mfrc522::Health Mfrc522::finish_reset() {
  // Up once PowerDown has cleared and VersionReg answers. Some modules read 0x00 on SPI for a while after a
  // reset (PowerDown then reads 0 too): that is still starting, not absent, until the start-up timeout —
  // taking it for DOWN made check() reset the chip again as soon as it answered, for ever.
  if ((read_reg(REG_COMMAND) & COMMAND_POWER_DOWN) || !version_ok(version())) {
    if ((uint32_t)(micros() - start_us_) < RFID_STARTUP_TIMEOUT_US) return STARTING;
    starting_ = false; // never came up (no module: MISO pulled low reads 0x00): DOWN; check() starts over
    return DOWN;
  }
  starting_ = false;
  configure();
  ready_ = true;
  return UP;
}

void Mfrc522::configure() {
  write_reg(REG_TX_MODE, 0x00); // 106 kBd, no CRC added by the chip (we send our own CRC_A)
  write_reg(REG_RX_MODE, 0x00);
  write_reg(REG_T_MODE, T_MODE_VALUE);
  write_reg(REG_T_PRESCALER, RFID_TIMER_PRESCALER);
  write_reg(REG_T_RELOAD_H, 0x00);
  write_reg(REG_T_RELOAD_L, RFID_TIMER_RELOAD);
  write_reg(REG_TX_ASK, 0x40);  // 100 % ASK modulation, required by ISO 14443A
  write_reg(REG_MODE, 0x3D);    // CRC preset 0x6363 (unused by us, but the documented default for type A)
  write_reg(REG_COLL, 0x00);    // ValuesAfterColl = 0: received bits after a collision read as 0
  field(false);                 // the caller's inventory schedule switches it on (tags need 5 ms of field)
}

Mfrc522::Health Mfrc522::check() {
  if (starting_) return finish_reset();
  if (!version_ok(version())) {
    ready_ = false;
    return DOWN;
  }
  // Answering, but unconfigured: it came back after a fault, or a brown-out reset it (its registers are
  // at their reset values then: TModeReg 0x00). Start it over, without waiting here.
  if (!ready_ || read_reg(REG_T_MODE) != T_MODE_VALUE) {
    start_reset();
    return STARTING;
  }
  return UP;
}

void Mfrc522::field(bool on) {
  uint8_t v = read_reg(REG_TX_CONTROL);
  write_reg(REG_TX_CONTROL, on ? (uint8_t)(v | 0x03) : (uint8_t)(v & ~0x03)); // Tx1RFEn, Tx2RFEn
}

Mfrc522::Status Mfrc522::transceive(const uint8_t *tx, uint8_t tx_len, uint8_t bit_framing, uint8_t *rx,
                                    uint8_t *rx_len, uint8_t *rx_last_bits, uint8_t *coll_pos) {
  write_reg(REG_COMMAND, CMD_IDLE);
  // The timer runs on its own (datasheet §8.5): Idle does not stop it, and a frame nobody answered (an
  // HLTA) leaves it counting. Stopped here, before the IRQ bits are cleared, it cannot raise a stale
  // TimerIRq during this frame (which would read as "no tag answered").
  write_reg(REG_CONTROL, CONTROL_TSTOP_NOW);
  write_reg(REG_COM_IRQ, 0x7F);     // clear all interrupt request bits
  write_reg(REG_FIFO_LEVEL, 0x80);  // flush the FIFO
  write_fifo(tx, tx_len);
  write_reg(REG_BIT_FRAMING, bit_framing);
  write_reg(REG_COMMAND, CMD_TRANSCEIVE);
  write_reg(REG_BIT_FRAMING, (uint8_t)(bit_framing | 0x80)); // StartSend
  bool send_only = rx == nullptr && *rx_len == 0;
  uint32_t start = micros();
  for (uint8_t n = 1;; n++) {
    uint8_t irq = read_reg(REG_COM_IRQ);
    if (send_only && (irq & 0x40)) return ST_OK; // TxIRq: sent
    if (irq & 0x30) break;                       // RxIRq or IdleIRq: a frame was received
    if (irq & 0x01) return ST_TIMEOUT;           // TimerIRq: no tag answered
    // The guard only catches a dead chip: looking at the clock every 16th read keeps each read short.
    if ((n & 15) == 0 && (uint32_t)(micros() - start) > RFID_GUARD_US) return ST_ERROR;
  }
  if (rx == nullptr) return ST_OK; // something answered: enough for a REQA/WUPA
  uint8_t err = read_reg(REG_ERROR);
  if (err & ERR_BUFFER_OVFL) return ST_ERROR;
  uint8_t n = read_reg(REG_FIFO_LEVEL);
  if (n == 0) return ST_TIMEOUT;               // nothing usable was received
  if (n > *rx_len) return ST_ERROR;
  read_fifo(rx, n);
  *rx_len = n;
  *rx_last_bits = (uint8_t)(read_reg(REG_CONTROL) & 0x07);
  // A collision comes first: the collided byte's parity bit may be wrong as well (NXP's reader library
  // checks CollErr before ParityErr the same way).
  if (err & ERR_COLL) {
    uint8_t coll = read_reg(REG_COLL);
    *coll_pos = (coll & 0x20) ? 0 : (uint8_t)((coll & 0x1F) == 0 ? 32 : (coll & 0x1F)); // 0: not valid
    return ST_COLLISION;
  }
  if (err & (ERR_PARITY | ERR_PROTOCOL)) return ST_ERROR;
  return ST_OK;
}

Mfrc522::Status Mfrc522::request(uint8_t cmd) {
  uint8_t rx_len = 1, last_bits = 0, coll = 0; // rx_len != 0 without a buffer: "did anything answer?"
  // Several tags with different ATQAs collide here (or garble it): someone answered all the same.
  return transceive(&cmd, 1, 0x07, nullptr, &rx_len, &last_bits, &coll); // short frame: 7 bits
}

bool Mfrc522::select_level(uint8_t sel, uint8_t cl[4], uint8_t *sak, bool zero_branch) {
  uint8_t buf[9];
  memset(buf, 0, sizeof(buf));
  buf[0] = sel;
  uint8_t known = 0; // UID bits of this cascade level already known (collisions resolved so far)
  for (uint8_t guard = 0;; guard++) {
    if (guard > 32) return false;
    uint8_t full = (uint8_t)(known / 8), extra = (uint8_t)(known % 8);
    buf[1] = (uint8_t)(((2 + full) << 4) | extra); // NVB: bytes and bits we send
    uint8_t rx[5];
    uint8_t rx_len = sizeof(rx), last_bits = 0, coll = 0;
    // RxAlign = TxLastBits = extra: the answer continues the partial byte we sent.
    Status st = transceive(buf, (uint8_t)(2 + full + (extra ? 1 : 0)), (uint8_t)((extra << 4) | extra), rx,
                           &rx_len, &last_bits, &coll);
    if (st == ST_TIMEOUT || st == ST_ERROR) return false;
    uint8_t at = (uint8_t)(2 + full);
    for (uint8_t i = 0; i < rx_len && at + i < 7; i++) {
      if (i == 0 && extra) {
        uint8_t low = (uint8_t)((1 << extra) - 1); // bits we sent ourselves
        buf[at] = (uint8_t)((buf[at] & low) | (rx[0] & (uint8_t)~low));
      } else {
        buf[at + i] = rx[i];
      }
    }
    if (st == ST_COLLISION) {
      // The collided UID bit (1-based): CollPos counts from bit 0 of the first FIFO byte, which is the
      // byte our partial byte continues.
      if (coll == 0) return false; // CollPosNotValid
      uint8_t pos = (uint8_t)(8 * full + coll);
      if (pos <= known || pos > 32) return false; // no progress, or a collision in the BCC only
      uint8_t byte = (uint8_t)(2 + (pos - 1) / 8), bit = (uint8_t)((pos - 1) % 8);
      // Keep the bits before the collision, take the `1` branch (or the `0` one), clear the rest.
      buf[byte] = (uint8_t)((buf[byte] & (uint8_t)((1 << bit) - 1)) | (zero_branch ? 0 : (uint8_t)(1 << bit)));
      for (uint8_t i = (uint8_t)(byte + 1); i < 7; i++) buf[i] = 0;
      known = pos;
      continue;
    }
    if (full + rx_len != 5 || last_bits != 0) return false; // all 40 bits (UID CLn + BCC) must be there
    break;
  }
  if ((uint8_t)(buf[2] ^ buf[3] ^ buf[4] ^ buf[5]) != buf[6]) return false; // BCC
  buf[1] = 0x70; // SELECT: all 40 bits
  uint16_t crc = crc_a(buf, 7);
  buf[7] = (uint8_t)(crc & 0xFF);
  buf[8] = (uint8_t)(crc >> 8);
  uint8_t rx[3];
  uint8_t rx_len = sizeof(rx), last_bits = 0, coll = 0;
  if (transceive(buf, 9, 0, rx, &rx_len, &last_bits, &coll) != ST_OK) return false;
  if (rx_len != 3 || last_bits != 0) return false;
  uint16_t sak_crc = crc_a(rx, 1);
  if (rx[1] != (uint8_t)(sak_crc & 0xFF) || rx[2] != (uint8_t)(sak_crc >> 8)) return false;
  *sak = rx[0];
  memcpy(cl, buf + 2, 4);
  return true;
}

void Mfrc522::halt() {
  uint8_t buf[4] = {PICC_HLTA, 0x00, 0, 0};
  uint16_t crc = crc_a(buf, 2);
  buf[2] = (uint8_t)(crc & 0xFF);
  buf[3] = (uint8_t)(crc >> 8);
  uint8_t rx_len = 0, last_bits = 0, coll = 0;
  // A halted tag does not answer, so there is nothing to wait for once the frame is out: the next frame
  // comes later than a tag's frame delay (~90 us) anyway (its SPI set-up alone takes longer).
  transceive(buf, 4, 0, nullptr, &rx_len, &last_bits, &coll);
}

Mfrc522::Step Mfrc522::poll(TagUid *uid, bool zero_branch) {
  Status st = request(PICC_REQA);
  if (st == ST_TIMEOUT) {
    // Nobody answered — or a new tag's ATQA was lost on the air. That tag is READY now, and the next REQA
    // would send it back to IDLE unanswered (a second false "empty"). An ANTICOLLISION CL1 with no UID bit
    // (NVB 0x20) asks READY tags directly; only IDLE/HALT ones ignore it. So an empty poll is wrong only
    // when both answers are lost (p^2), at ~0.4 ms a poll.
    uint8_t probe[2] = {PICC_SEL_CL1, 0x20};
    uint8_t rx_len = 1, last_bits = 0, coll = 0; // "did anything answer?"
    st = transceive(probe, 2, 0, nullptr, &rx_len, &last_bits, &coll);
    if (st == ST_TIMEOUT) return EMPTY; // the timer ran out: nobody answered
    if (st != ST_OK) return FAILED;
    // A READY tag answered: read it (ANTICOLLISION frames leave READY tags READY).
  } else if (st != ST_OK) {
    return FAILED; // the chip itself did not work (the guard ran out): proves nothing
  }
  static const uint8_t sel[3] = {PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3};
  uint8_t len = 0;
  for (uint8_t level = 0; level < 3; level++) {
    uint8_t cl[4], sak = 0;
    if (!select_level(sel[level], cl, &sak, zero_branch)) return FAILED;
    if (sak & SAK_UID_INCOMPLETE) {
      if (cl[0] != PICC_CASCADE_TAG || level == 2) return FAILED;
      memcpy(uid->bytes + len, cl + 1, 3);
      len = (uint8_t)(len + 3);
      continue;
    }
    if (cl[0] == PICC_CASCADE_TAG) return FAILED; // ISO 14443-3: never the first byte of a UID CLn
    memcpy(uid->bytes + len, cl, 4);
    uid->len = (uint8_t)(len + 4);
    halt();
    return TAG;
  }
  return FAILED;
}

Mfrc522::Presence Mfrc522::presence(const TagUid &uid, bool shared_upper) {
  Status wupa = request(PICC_WUPA);
  if (wupa == ST_TIMEOUT) return ABSENT; // no halted (or idle) tag at all: nothing to put back either
  if (wupa != ST_OK) {                   // the chip itself did not work: put back whatever it may have woken
    halt();
    return UNSURE;
  }
  static const uint8_t sel[3] = {PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3};
  uint8_t levels = uid.len == 4 ? 1 : uid.len == 7 ? 2 : 3;
  for (uint8_t level = 0; level < levels; level++) {
    // UID CLn: the cascade tag and 3 UID bytes below the last level, the last 4 bytes at it; then BCC.
    uint8_t cl[5];
    bool last = level + 1 == levels;
    tag_uid_level(uid, level, cl);
    cl[4] = (uint8_t)(cl[0] ^ cl[1] ^ cl[2] ^ cl[3]);
    uint8_t buf[9];
    uint8_t rx[5];
    uint8_t rx_len = sizeof(rx), last_bits = 0, coll = 0;
    buf[0] = sel[level];
    if (last && levels > 1 && shared_upper) {
      // Another known tag is at this level too: ANTICOLLISION with all 32 bits (NVB 0x60) singles this one
      // out (it answers its BCC), the other stays READY*, silent: the HLTA puts it back to HALT.
      buf[1] = NVB_32_BITS;
      memcpy(buf + 2, cl, 4);
      Status st = transceive(buf, 6, 0, rx, &rx_len, &last_bits, &coll);
      halt();
      if (st == ST_TIMEOUT) return ABSENT;
      return st == ST_OK && rx_len == 1 && last_bits == 0 && rx[0] == cl[4] ? PRESENT : UNSURE;
    }
    if (last && levels > 1) {
      // ANTICOLLISION, no UID bit given (NVB 0x20): every tag still at this level answers its UID CLn.
      // The SELECTs before sent the others back, so that is this tag alone — or, were another tag to share
      // its upper cascade levels, a collision we see (instead of a silent tag left READY).
      buf[1] = 0x20;
      Status st = transceive(buf, 2, 0, rx, &rx_len, &last_bits, &coll);
      if (st == ST_TIMEOUT) return ABSENT; // everybody woken is back in HALT / IDLE already
      if (st == ST_OK && rx_len == 5 && last_bits == 0 && memcmp(rx, cl, 5) == 0) return PRESENT;
      halt(); // an answer, not this tag's (ST_OK: another tag's) or garbled: back to HALT / IDLE
      return st == ST_OK && rx_len == 5 && last_bits == 0 ? ABSENT : UNSURE;
    }
    // SELECT: the tag goes on to the next level (or, with a 4-byte UID, ACTIVE*), every other woken tag
    // back to HALT / IDLE.
    buf[1] = NVB_SELECT;
    memcpy(buf + 2, cl, 5);
    uint16_t crc = crc_a(buf, 7);
    buf[7] = (uint8_t)(crc & 0xFF);
    buf[8] = (uint8_t)(crc >> 8);
    rx_len = 3;
    Status st = transceive(buf, 9, 0, rx, &rx_len, &last_bits, &coll);
    if (st == ST_TIMEOUT) return ABSENT;
    uint16_t sak_crc = crc_a(rx, 1);
    bool ok = st == ST_OK && rx_len == 3 && last_bits == 0 && rx[1] == (uint8_t)(sak_crc & 0xFF) &&
              rx[2] == (uint8_t)(sak_crc >> 8) && ((rx[0] & SAK_UID_INCOMPLETE) != 0) == !last;
    if (!ok) {
      halt();
      return UNSURE;
    }
  }
  // A 4-byte UID, selected (ACTIVE*). HLTA: it goes back to HALT, and so does any other woken tag that did
  // not take the SELECT for another UID as an error (ISO says it falls back to IDLE/HALT; a ChameleonMini
  // stays READY). A newly placed tag the WUPA woke would otherwise stay READY and the next REQA would send
  // it back to IDLE unanswered: a false empty poll, and with a check in every step never a TAG+.
  halt();
  return PRESENT;
}
