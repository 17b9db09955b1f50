// Unit tests of the hardware-free firmware logic: button debounce, HX711 decoding and bit-banging, weight
// conversion and stability filter, tag presence, lamp patterns, EEPROM settings record, CRC_A and the
// MFRC522 driver against a register-level model.
#include <Arduino.h>
#include <string.h>

#include <vector>

#include "button.h"
#include "check.h"
#include "fake.h"
#include "fake_devices.h"
#include "hx711.h"
#include "lamp.h"
#include "mfrc522.h"
#include "settings.h"
#include "tag_presence.h"
#include "weight_filter.h"

// ----------------------------------------------------------------------------------------------- button

TEST(button_reports_first_edge_time_after_bounce) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  // Press at t=1000 with bounce until 2500.
  b.on_edge(1000);
  b.on_edge(1300);
  b.on_edge(2500);
  CHECK(!b.poll(3000, true, &e));   // still within the quiet time
  CHECK(!b.poll(7400, true, &e));   // 4.9 ms after the last edge
  CHECK(b.poll(7500, true, &e));    // quiet for 5 ms: accepted
  CHECK(e.pressed);
  CHECK_EQ(e.t_us, 1000u);          // the first edge, not the settling time
  CHECK(b.pressed());
  CHECK(!b.poll(9000, true, &e));   // no repeat
  b.on_edge(50000);                 // release
  CHECK(b.poll(56000, false, &e));
  CHECK(!e.pressed);
  CHECK_EQ(e.t_us, 50000u);
}

TEST(button_ignores_glitches) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(100);
  b.on_edge(300); // a 200 us spike that returned to released
  CHECK(!b.poll(6000, false, &e));
  CHECK(!b.pressed());
  // The next real press gets its own first edge, not the glitch's.
  b.on_edge(10000);
  CHECK(b.poll(16000, true, &e));
  CHECK_EQ(e.t_us, 10000u);
}

TEST(button_across_micros_wrap) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(0xFFFFF000u); // 4096 us before the wrap
  b.on_edge(0xFFFFFF00u);
  CHECK(!b.poll(500, true, &e));  // 756 us after the last edge, across the wrap
  CHECK(b.poll(5000, true, &e));
  CHECK_EQ(e.t_us, 0xFFFFF000u);
}

TEST(button_missed_edge_is_recovered) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  CHECK(!b.poll(1000, true, &e)); // level changed without an edge: armed now
  CHECK(b.poll(6000, true, &e));
  CHECK_EQ(e.t_us, 1000u);
}

// ------------------------------------------------------------------------------------------------ HX711

TEST(hx711_sign_extension) {
  CHECK_EQ(hx711_sign_extend(0x000000), 0);
  CHECK_EQ(hx711_sign_extend(0x000001), 1);
  CHECK_EQ(hx711_sign_extend(0x7FFFFF), 8388607);
  CHECK_EQ(hx711_sign_extend(0x800000), -8388608);
  CHECK_EQ(hx711_sign_extend(0xFFFFFF), -1);
  CHECK_EQ(hx711_sign_extend(0xFF123456), 0x123456); // bits above 24 are ignored
}

TEST(hx711_bitbang_reads_the_model) {
  fake::reset();
  FakeHx711 model;
  model.attach(4, 5);
  fake::on_write = [&](uint8_t p, uint8_t l) { model.on_write(p, l); };
  fake::on_time = [&]() { model.on_time(); };
  Hx711 hx;
  hx.begin(4, 5);
  CHECK(!hx.ready());
  const int32_t values[] = {-8388608, -1, 0, 1, 123456, 8388607};
  for (int32_t v : values) {
    model.value = v;
    fake::advance_us(100000);
    CHECK(hx.ready());
    CHECK_EQ(hx.read(), v);
    CHECK(!hx.ready());
  }
  CHECK_EQ(model.conversions, 6u);
  CHECK_EQ(model.pulses_with_irq_enabled, 0); // every high phase ran with interrupts off
  CHECK_EQ(model.long_high_pulses, 0);        // and none came near the 60 us power-down limit
}

// ----------------------------------------------------------------------------------------------- weight

TEST(weight_conversion) {
  int32_t dg = 0;
  CHECK(!weight_decigrams(1000, 0, 0, &dg)); // uncalibrated
  CHECK(weight_decigrams(1000 + 420000, 1000, 420000, &dg)); // 1 kg
  CHECK_EQ(dg, 10000);
  CHECK(weight_decigrams(1000 - 42, 1000, 420000, &dg)); // -0.1 g
  CHECK_EQ(dg, -1);
  CHECK(weight_decigrams(-8388608, 8388607, -420000, &dg)); // reversed cell, full swing
  CHECK_EQ(dg, 399458); // 399457.5, rounded half away from zero
  CHECK(!weight_decigrams(8388607, -8388608, 1, &dg)); // does not fit int32
}

TEST(weight_calibration_factor) {
  int32_t k = 0;
  CHECK(weight_calibration(210000 + 500, 500, 500, &k));
  CHECK_EQ(k, 420000);
  CHECK(weight_calibration(-210000, 0, 500, &k)); // reversed cell
  CHECK_EQ(k, -420000);
  CHECK(!weight_calibration(900, 0, 500, &k));    // barely moved: nothing on the pad
  CHECK(!weight_calibration(100000, 0, 0, &k));
}

TEST(weight_filter_settles_and_reports_once) {
  WeightFilter f;
  WeightReport r;
  int reports = 0;
  for (int i = 0; i < 4; i++) CHECK(!f.feed(120 + (i % 2), &r)); // window not full yet
  CHECK(f.feed(121, &r));
  CHECK(r.stable);
  CHECK_EQ(r.dg, 121); // mean of 120,121,120,121,121 = 120.6 -> 121
  for (int i = 0; i < 20; i++) reports += f.feed(120 + (i % 3), &r) ? 1 : 0; // noise within the band
  CHECK_EQ(reports, 0);
  // A stone lands: unsettled once, then settled at the new weight.
  CHECK(f.feed(400, &r));
  CHECK(!r.stable);
  CHECK_EQ(r.dg, 400);
  for (int i = 0; i < 3; i++) CHECK(!f.feed(450, &r));
  CHECK(!f.feed(451, &r)); // the window still holds 400
  CHECK(f.feed(450, &r));
  CHECK(r.stable);
  CHECK_EQ(r.dg, 450);
}

TEST(weight_filter_reports_slow_drift) {
  WeightFilter f;
  WeightReport r;
  for (int i = 0; i < 5; i++) f.feed(100, &r);
  int reports = 0;
  int32_t last = 0;
  for (int i = 0; i < 30; i++) {
    if (f.feed(100 + i / 2, &r)) { // creeping up 0.05 g a sample, always within the band
      reports++;
      last = r.dg;
      CHECK(r.stable);
    }
  }
  CHECK(reports >= 2);
  CHECK(last >= 105);
}

TEST(weight_filter_extreme_values_do_not_overflow) {
  WeightFilter f;
  WeightReport r;
  for (int i = 0; i < 5; i++) f.feed(INT32_MAX, &r);
  CHECK(f.stable());
  CHECK(f.feed(INT32_MIN, &r));
  CHECK(!r.stable);
}

// -------------------------------------------------------------------------------------------------- tags

static TagUid uid_of(std::vector<uint8_t> b) {
  TagUid u;
  u.len = (uint8_t)b.size();
  if (!b.empty()) memcpy(u.bytes, b.data(), b.size());
  return u;
}

TEST(tag_arrives_and_leaves_after_two_misses) {
  TagPresence p;
  TagChange c[2];
  TagUid a = uid_of({1, 2, 3, 4});
  TagUid none = uid_of({});
  CHECK_EQ((int)p.update(false, none, 0, c), 0);
  CHECK_EQ((int)p.update(true, a, 1000, c), 1);
  CHECK(c[0].arrived);
  CHECK_EQ(c[0].t_us, 1000u);
  CHECK(tag_uid_equal(c[0].uid, a));
  CHECK_EQ((int)p.update(true, a, 2000, c), 0);
  CHECK_EQ((int)p.update(false, none, 3000, c), 0); // one miss: still there
  CHECK_EQ((int)p.update(true, a, 4000, c), 0);     // back: the miss is forgotten
  CHECK_EQ((int)p.update(false, none, 5000, c), 0);
  CHECK_EQ((int)p.update(false, none, 6000, c), 1); // second miss in a row
  CHECK(!c[0].arrived);
  CHECK_EQ(c[0].t_us, 5000u); // the first missed read
  CHECK(!p.present());
}

TEST(tag_swap_reports_left_then_arrived) {
  TagPresence p;
  TagChange c[2];
  TagUid a = uid_of({1, 2, 3, 4});
  TagUid b = uid_of({4, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66});
  p.update(true, a, 1000, c);
  CHECK_EQ((int)p.update(true, b, 2000, c), 2);
  CHECK(!c[0].arrived);
  CHECK(tag_uid_equal(c[0].uid, a));
  CHECK(c[1].arrived);
  CHECK(tag_uid_equal(c[1].uid, b));
  CHECK(tag_uid_equal(p.uid(), b));
}

// -------------------------------------------------------------------------------------------------- lamp

TEST(lamp_modes_and_finite_blink) {
  Lamp l;
  CHECK(!l.level(0));
  l.on();
  CHECK(l.level(5));
  l.blink(100, 400, 2, 1000);
  CHECK(l.level(1000));
  CHECK(l.level(1099));
  CHECK(!l.level(1100));
  CHECK(!l.level(1499));
  CHECK(l.level(1500));
  CHECK(!l.level(1600));
  CHECK(!l.level(2000)); // two cycles done: off for good
  CHECK(!l.level(2050));
  l.off();
  CHECK(!l.level(3000));
}

TEST(lamp_blink_forever_across_millis_wrap) {
  Lamp l;
  uint32_t start = 0xFFFFFF00u;
  l.blink(100, 100, 0, start);
  CHECK(l.level(start + 50));
  CHECK(!l.level(start + 150));
  CHECK(l.level(start + 250)); // past the 2^32 ms wrap
  CHECK(l.level(start + 100050));
}

// ---------------------------------------------------------------------------------------------- settings

TEST(settings_round_trip_and_corruption) {
  Settings s;
  settings_defaults(&s);
  CHECK_EQ(std::string(s.station), std::string("unset"));
  CHECK_EQ(s.per_kg, 0);
  strcpy(s.station, "abcdefghijklmnop");
  s.tare = -8388608;
  s.per_kg = -420000;
  s.boot = 4294967295u;
  uint8_t rec[SETTINGS_RECORD_SIZE];
  settings_encode(s, rec);
  Settings back;
  CHECK(settings_decode(rec, &back));
  CHECK_EQ(std::string(back.station), std::string(s.station));
  CHECK_EQ(back.tare, s.tare);
  CHECK_EQ(back.per_kg, s.per_kg);
  CHECK_EQ(back.boot, s.boot);
  for (int i = 0; i < SETTINGS_RECORD_SIZE; i++) { // any single flipped bit is caught
    rec[i] ^= 0x10;
    CHECK(!settings_decode(rec, &back));
    rec[i] ^= 0x10;
  }
  uint8_t blank[SETTINGS_RECORD_SIZE];
  memset(blank, 0xFF, sizeof(blank));
  CHECK(!settings_decode(blank, &back));
}

TEST(settings_eeprom_load_save) {
  fake::reset();
  Settings s;
  CHECK(!settings_load(&s)); // blank EEPROM: defaults
  CHECK_EQ(std::string(s.station), std::string("unset"));
  s.boot = 7;
  CHECK(settings_save(s));
  Settings t;
  CHECK(settings_load(&t));
  CHECK_EQ(t.boot, 7u);
  uint32_t writes = fake::eeprom_writes;
  CHECK(settings_save(t)); // unchanged record: no EEPROM cell is rewritten
  CHECK_EQ(fake::eeprom_writes, writes);
  fake::eeprom_broken = true;
  t.boot = 8;
  CHECK(!settings_save(t)); // the read-back catches a failed write
}

// ----------------------------------------------------------------------------------------------- MFRC522

TEST(crc_a_known_values) {
  const uint8_t hlta[2] = {0x50, 0x00};
  CHECK_EQ(crc_a(hlta, 2), 0xCD57); // HLTA is sent as 50 00 57 CD
  const uint8_t zeros[2] = {0x00, 0x00};
  CHECK_EQ(crc_a(zeros, 2), 0x1EA0);
}

namespace {
struct RfidRig {
  FakeMfrc522 chip;
  Mfrc522 driver{10, 9};
  RfidRig() {
    fake::reset();
    chip.attach(10);
    fake::on_write = [this](uint8_t p, uint8_t l) { chip.on_write(p, l); };
    fake::spi_device = [this](uint8_t out) { return chip.spi(out); };
  }
};
} // namespace

TEST(mfrc522_reads_4_and_7_byte_uids) {
  RfidRig rig;
  CHECK(rig.driver.begin());
  TagUid uid;
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::NO_TAG);
  rig.chip.uid = {0xDE, 0xAD, 0xBE, 0xEF};
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::TAG);
  CHECK_EQ((int)uid.len, 4);
  CHECK(tag_uid_equal(uid, uid_of({0xDE, 0xAD, 0xBE, 0xEF})));
  CHECK_EQ(rig.chip.halts, 1);
  // Halted, the tag is still read on the next poll (WUPA wakes it).
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::TAG);
  rig.chip.uid = {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::TAG);
  CHECK_EQ((int)uid.len, 7);
  CHECK(tag_uid_equal(uid, uid_of({0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66})));
}

TEST(mfrc522_reports_a_missing_chip_and_recovers) {
  RfidRig rig;
  rig.chip.connected = false;
  CHECK(!rig.driver.begin());
  TagUid uid;
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::FAULT);
  rig.chip.connected = true;
  rig.chip.uid = {1, 2, 3, 4};
  CHECK_EQ((int)rig.driver.read_uid(&uid), (int)Mfrc522::TAG); // re-initialised by itself
}
