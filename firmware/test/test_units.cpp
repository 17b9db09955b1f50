// Unit tests of the hardware-free firmware logic: button debounce, HX711 decoding and bit-banging, weight
// conversion and stability filter, tag presence, lamp patterns, EEPROM settings record, CRC_A and the
// MFRC522 driver against a register-level model.
#include <Arduino.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "button.h"
#include "check.h"
#include "fake.h"
#include "fake_devices.h"
#include "hx711.h"
#include "lamp.h"
#include "slap.h"
#include "mfrc522.h"
#include "settings.h"
#include "tag_presence.h"
#include "weight_filter.h"

// ----------------------------------------------------------------------------------------------- button
// on_edge(t, level) is the ISR: the edge's micros() and the level read right after it (true = pressed).

TEST(button_reports_first_edge_time_after_bounce) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  // Press at t=1000 with bounce until 2500.
  b.on_edge(1000, true);
  b.on_edge(1300, false);
  b.on_edge(2500, true);
  CHECK(!b.poll(3000, true, &e));   // still within the quiet time
  CHECK(!b.poll(7400, true, &e));   // 4.9 ms after the last edge
  CHECK(b.poll(7500, true, &e));    // quiet for 5 ms: accepted
  CHECK(e.pressed);
  CHECK_EQ(e.t_us, 1000u);          // the first edge, not the settling time
  CHECK(b.pressed());
  CHECK(!b.poll(9000, true, &e));   // no repeat
  b.on_edge(50000, false);          // release
  CHECK(b.poll(56000, false, &e));
  CHECK(!e.pressed);
  CHECK_EQ(e.t_us, 50000u);
}

TEST(button_ignores_glitches) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(100, true);
  b.on_edge(300, false); // a 200 us spike that returned to released
  CHECK(!b.poll(6000, false, &e));
  CHECK(!b.pressed());
  // The next real press gets its own first edge, not the glitch's.
  b.on_edge(10000, true);
  CHECK(b.poll(16000, true, &e));
  CHECK_EQ(e.t_us, 10000u);
}

TEST(button_glitch_seen_late_is_still_a_glitch) {
  // A 2 ms pulse, and loop() only looks 30 ms later: nothing to report.
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(1000, true);
  b.on_edge(3000, false);
  CHECK(!b.poll(33000, false, &e));
  CHECK(!b.pressed());
}

TEST(button_short_press_while_loop_is_blocked) {
  // A 9 ms press: quiet for 5 ms, then released before loop() looked again (it was in a 15 ms RFID
  // step). Both changes are reported, in order, each with its first edge.
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(1000, true);
  b.on_edge(1200, false); // bounce
  b.on_edge(1500, true);
  b.on_edge(10000, false); // released 8.5 ms after the last bounce: the press had settled
  b.on_edge(10300, true);  // release bounce
  b.on_edge(10600, false);
  CHECK(b.poll(16000, false, &e)); // loop() is back: BTN+ first...
  CHECK(e.pressed);
  CHECK_EQ(e.t_us, 1000u);
  CHECK(b.poll(16000, false, &e)); // ...then BTN- (quiet since 10600 + 5000)
  CHECK(!e.pressed);
  CHECK_EQ(e.t_us, 10000u);
  CHECK(!b.poll(16000, false, &e));
  CHECK(!b.pressed());
}

TEST(button_several_changes_while_blocked_and_a_full_queue) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  // press, release, press, release, press: 6 ms each, all before loop() looks (100 ms: a reader re-init).
  uint32_t t = 1000;
  for (int i = 0; i < 5; i++, t += 6000) b.on_edge(t, i % 2 == 0);
  std::vector<std::pair<bool, uint32_t>> got;
  while (b.poll(100000, true, &e)) got.push_back({e.pressed, e.t_us});
  CHECK_EQ(got.size(), (size_t)5);
  for (size_t i = 0; i < got.size(); i++) {
    CHECK_EQ(got[i].first, i % 2 == 0);
    CHECK_EQ(got[i].second, 1000u + 6000u * (uint32_t)i);
  }
  // Eight settled changes at once: the queue (BUTTON_QUEUE) fills, the rest drop in pairs, and the
  // reports still alternate and end at the real level.
  ButtonDebouncer c(5000);
  c.begin(false);
  t = 1000;
  for (int i = 0; i < 9; i++, t += 6000) c.on_edge(t, i % 2 == 0);
  bool last = false;
  int n = 0;
  while (c.poll(200000, true, &e)) {
    CHECK(e.pressed != last);
    last = e.pressed;
    n++;
  }
  CHECK(n >= BUTTON_QUEUE);
  CHECK(c.pressed()); // 9 edges: pressed at the end
}

TEST(button_across_micros_wrap) {
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  b.on_edge(0xFFFFF000u, true); // 4096 us before the wrap
  b.on_edge(0xFFFFFF00u, true);
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

TEST(button_time_taken_before_an_edge_is_not_quiet_time) {
  // poll_button() reads micros() with interrupts on, then disables them only around poll(): an edge the ISR
  // took in between is newer than `now`. That must not read as ~71 minutes of quiet (unsigned wrap).
  ButtonDebouncer b(5000);
  b.begin(false);
  ButtonEvent e;
  CHECK(b.idle(false));
  CHECK(!b.idle(true)); // the live level differs: a change without an edge is due
  b.on_edge(10000, true);
  CHECK(!b.idle(true)); // an edge pending
  CHECK(!b.poll(9996, true, &e)); // `now` read 4 us before the edge
  CHECK(!b.poll(14999, true, &e));
  CHECK(b.poll(15000, true, &e));
  CHECK(e.pressed);
  CHECK_EQ(e.t_us, 10000u);
  CHECK(b.idle(true));
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

TEST(tag_arrives_with_its_window_and_leaves_after_two_missed_checks_and_an_inventory) {
  TagPresence p;
  TagUid a = uid_of({1, 2, 3, 4});
  TagChange c;
  // Read by a poll at 50000; the last poll nobody answered was at 47500: it arrived in between.
  CHECK_EQ((int)p.seen(a, 50000, 47500, &c), (int)TagPresence::ARRIVED);
  CHECK(c.arrived);
  CHECK_EQ(c.t_us, 50000u);
  CHECK_EQ(c.window_us, 2500u);
  CHECK(tag_uid_equal(c.uid, a));
  CHECK_EQ(p.next_slot(0), 0);
  CHECK(!p.checked(0, TagPresence::ANSWERED, 60000));
  CHECK(!p.checked(0, TagPresence::MISSED, 70000)); // one miss: still there
  CHECK(!p.checked(0, TagPresence::ANSWERED, 80000)); // back: the miss is forgotten
  CHECK(!p.checked(0, TagPresence::MISSED, 90000));
  CHECK(!p.checked(0, TagPresence::UNSURE, 95000)); // garbled: counts neither way
  CHECK(!p.suspects());
  CHECK(!p.left(99000, &c)); // no inventory decides about a tag that is not suspected
  CHECK(p.checked(0, TagPresence::MISSED, 100000)); // the second miss in a row: a suspect
  CHECK(p.suspects());
  CHECK(p.present(a)); // still tracked until an inventory has not read it
  CHECK(p.left(130000, &c)); // the inventory that did not read it ended at 130000
  CHECK(!c.arrived);
  CHECK_EQ(c.t_us, 130000u);     // then it was surely gone (either miss may have been a lost answer)
  CHECK_EQ(c.window_us, 50000u); // since the START of the last check it answered (80000)
  CHECK(!p.present(a));
  CHECK(!p.left(130000, &c));
  CHECK_EQ((int)p.count(), 0);
  CHECK_EQ(p.next_slot(0), -1);
}

TEST(tag_presence_a_suspect_read_by_the_inventory_stays) {
  // A still tag whose answers got lost twice: the inventory (a field reset, every tag read again) reads it:
  // no TAG-, and it is no longer suspected.
  TagPresence p;
  TagUid a = uid_of({1, 2, 3, 4});
  TagChange c;
  p.seen(a, 1000, 0, &c);
  p.checked(0, TagPresence::MISSED, 2000);
  CHECK(p.checked(0, TagPresence::MISSED, 3000));
  CHECK_EQ((int)p.seen(a, 20000, 19000, &c), (int)TagPresence::KNOWN);
  CHECK(!p.suspects());
  CHECK(!p.left(25000, &c));
  CHECK(p.present(a));
  // Its misses were forgotten: one more miss is not enough.
  CHECK(!p.checked(0, TagPresence::MISSED, 30000));
}

TEST(tag_presence_windows_at_boot_and_across_the_wrap) {
  TagPresence p;
  TagChange c;
  // At boot no poll came earlier: the window reaches back to power-on (last_empty 0).
  CHECK_EQ((int)p.seen(uid_of({1, 1, 1, 1}), 61000, 0, &c), (int)TagPresence::ARRIVED);
  CHECK_EQ(c.window_us, 61000u);
  // micros() wraps between the empty poll and the read.
  CHECK_EQ((int)p.seen(uid_of({2, 2, 2, 2}), 1000, 4294966296u, &c), (int)TagPresence::ARRIVED);
  CHECK_EQ(c.window_us, 2000u);
  // Its last answer before the wrap, the misses and the inventory's end after it.
  CHECK(!p.checked(1, TagPresence::ANSWERED, 4294960000u));
  CHECK(!p.checked(1, TagPresence::MISSED, 4294966000u));
  CHECK(p.checked(1, TagPresence::MISSED, 4000));
  CHECK(p.left(9000, &c));
  CHECK_EQ(c.t_us, 9000u);
  CHECK_EQ(c.window_us, 16296u); // 4294960000 -> 9000 across the wrap
}

TEST(tag_presence_a_known_tag_read_again_is_present) {
  TagPresence p;
  TagUid a = uid_of({1, 2, 3, 4});
  TagChange c;
  p.seen(a, 1000, 0, &c);
  CHECK(!p.checked(0, TagPresence::MISSED, 2000));
  // It had lost power (lifted and laid back between two checks): a poll reads it again.
  CHECK_EQ((int)p.seen(a, 3000, 2500, &c), (int)TagPresence::KNOWN);
  CHECK(!p.checked(0, TagPresence::MISSED, 4000)); // the earlier miss was forgotten
  CHECK(p.present(a));
}

TEST(tag_presence_many_tags_round_robin) {
  TagPresence p;
  std::vector<TagUid> hand;
  TagChange c;
  for (uint8_t i = 0; i < 13; i++) {
    hand.push_back(uid_of({0x04, i, 0x22, 0x33, 0x44, 0x55, (uint8_t)(0x60 + i)}));
    CHECK_EQ((int)p.seen(hand.back(), 1000u * i, 0, &c), (int)TagPresence::ARRIVED);
    CHECK_EQ(c.window_us, 1000u * i); // the first empty poll is still to come: each window reaches back to it
  }
  CHECK_EQ((int)p.count(), 13);
  // A round visits every slot once, in order, and wraps.
  int8_t slot = p.next_slot(0);
  for (int i = 0; i < 13; i++) {
    CHECK_EQ((int)slot, i);
    CHECK(tag_uid_equal(p.uid_at((uint8_t)slot), hand[(size_t)i]));
    slot = p.next_slot((uint8_t)(slot + 1));
  }
  CHECK_EQ((int)slot, 0);
  // The sixth leaves: its slot is skipped from then on.
  CHECK(!p.checked(5, TagPresence::MISSED, 20000));
  CHECK(p.checked(5, TagPresence::MISSED, 60000));
  CHECK(p.left(70000, &c));
  CHECK(!p.left(70000, &c)); // only the one suspect
  CHECK(tag_uid_equal(c.uid, hand[5]));
  CHECK_EQ((int)p.next_slot(5), 6);
  CHECK_EQ((int)p.count(), 12);
}

TEST(tag_presence_overflow) {
  TagPresence p;
  TagChange c;
  for (uint8_t i = 0; i < TAG_MAX_PRESENT; i++) CHECK_EQ((int)p.seen(uid_of({0x10, i, 0, 0}), i, 0, &c), (int)TagPresence::ARRIVED);
  CHECK(p.full());
  CHECK(!p.overflow());
  CHECK_EQ((int)p.seen(uid_of({0x20, 0, 0, 0}), 100, 0, &c), (int)TagPresence::NO_ROOM);
  CHECK(p.overflow());
  CHECK_EQ((int)p.count(), TAG_MAX_PRESENT);
  p.checked(3, TagPresence::MISSED, 200);
  CHECK(p.checked(3, TagPresence::MISSED, 300));
  CHECK(p.left(320, &c));
  CHECK(p.overflow()); // still: the one without a slot has not been read since
  p.clear_overflow();
  CHECK_EQ((int)p.seen(uid_of({0x20, 0, 0, 0}), 400, 350, &c), (int)TagPresence::ARRIVED);
  CHECK(!p.overflow());
}

// -------------------------------------------------------------------------------------------------- slap

TEST(slap_one_event_per_impact_stamped_with_its_first_edge) {
  SlapDetector d;
  uint32_t t = 0;
  CHECK(!d.poll(1000, &t));
  // An impact at 5000 us, then the ring-down: the comparator toggles every 125 us for 6 ms.
  for (uint32_t e = 5000; e < 11000; e += 250) d.on_edge(e);
  CHECK(d.poll(11100, &t));
  CHECK_EQ(t, 5000u);
  CHECK(!d.poll(11200, &t));
  // Still ringing weakly at 25 ms (< 20 ms after the last edge): the same impact.
  d.on_edge(25000);
  CHECK(!d.poll(26000, &t));
  // A second impact after 20 ms of quiet.
  d.on_edge(50000);
  d.on_edge(50250);
  CHECK(d.poll(50300, &t));
  CHECK_EQ(t, 50000u);
  // Two impacts while loop() is away: both kept, in order.
  d.on_edge(80000);
  d.on_edge(101000);
  CHECK(d.poll(102000, &t));
  CHECK_EQ(t, 80000u);
  CHECK(d.poll(102000, &t));
  CHECK_EQ(t, 101000u);
  CHECK(!d.poll(102000, &t));
  CHECK_EQ((int)d.dropped(), 0);
}

TEST(slap_across_the_micros_wrap_and_a_long_silence) {
  SlapDetector d;
  uint32_t t = 0;
  d.on_edge(4294960000u);
  CHECK(d.poll(4294961000u, &t));
  CHECK_EQ(t, 4294960000u);
  d.on_edge(5000); // 12.3 ms later, across the wrap: still ringing
  CHECK(!d.poll(6000, &t));
  // 71.6 minutes of silence (loop() polling now and then), then an edge whose raw difference to the last
  // one is small: the line was marked quiet long ago, so it is a new impact.
  CHECK(!d.poll(30000, &t));
  d.on_edge(5000 + 10);
  CHECK(d.poll(5000 + 20, &t));
  CHECK_EQ(t, 5010u);
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
  settings_encode(s, 200, rec);
  Settings back;
  uint8_t seq = 0;
  CHECK(settings_decode(rec, &back, &seq));
  CHECK_EQ((int)seq, 200);
  CHECK_EQ(std::string(back.station), std::string(s.station));
  CHECK_EQ(back.tare, s.tare);
  CHECK_EQ(back.per_kg, s.per_kg);
  CHECK_EQ(back.boot, s.boot);
  for (int i = 0; i < SETTINGS_RECORD_SIZE; i++) { // any single flipped bit is caught
    rec[i] ^= 0x10;
    CHECK(!settings_decode(rec, &back, &seq));
    rec[i] ^= 0x10;
  }
  uint8_t blank[SETTINGS_RECORD_SIZE];
  memset(blank, 0xFF, sizeof(blank));
  CHECK(!settings_decode(blank, &back, &seq));
  const uint8_t check[] = "123456789";
  CHECK_EQ(settings_crc16(check, 9), 0x29B1); // CRC-16/CCITT-FALSE check value
}

TEST(settings_pick_takes_the_newer_valid_slot) {
  Settings s1, s2, out;
  settings_defaults(&s1);
  strcpy(s1.station, "old");
  settings_defaults(&s2);
  strcpy(s2.station, "new");
  uint8_t a[SETTINGS_RECORD_SIZE], b[SETTINGS_RECORD_SIZE], blank[SETTINGS_RECORD_SIZE];
  memset(blank, 0xFF, sizeof(blank));
  uint8_t seq = 0;
  settings_encode(s1, 255, a);
  settings_encode(s2, 0, b); // the sequence number wrapped: 0 is newer than 255
  CHECK_EQ((int)settings_pick(a, b, &out, &seq), 1);
  CHECK_EQ(std::string(out.station), std::string("new"));
  CHECK_EQ((int)settings_pick(b, a, &out, &seq), 0);
  CHECK_EQ((int)settings_pick(a, blank, &out, &seq), 0);
  CHECK_EQ(std::string(out.station), std::string("old"));
  CHECK_EQ((int)settings_pick(blank, blank, &out, &seq), -1);
  b[10] ^= 1; // the newer one is corrupt: the older one wins
  CHECK_EQ((int)settings_pick(a, b, &out, &seq), 0);
  CHECK_EQ(std::string(out.station), std::string("old"));
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
  t.boot = 8;
  CHECK(settings_save(t)); // into the other slot
  CHECK(settings_load(&t));
  CHECK_EQ(t.boot, 8u);
  // A boot rewrites only a few bytes of a slot (boot counter, sequence number, CRC).
  uint32_t writes = fake::eeprom_writes;
  t.boot = 9;
  CHECK(settings_save(t));
  CHECK(fake::eeprom_writes - writes <= 5u);
  fake::eeprom_broken = true;
  t.boot = 10;
  CHECK(!settings_save(t)); // the read-back catches a failed write
  fake::eeprom_broken = false;
  CHECK(settings_load(&t));
  CHECK_EQ(t.boot, 9u); // the current slot was never touched
}

TEST(settings_survive_a_save_torn_at_any_byte) {
  // The settings as id set / tare left them, then boots; each save is cut off after k bytes (a reset or
  // brown-out), with the byte being written spoiled. The next load never falls back to defaults: it has
  // either the old or the new record, and the boot counter never goes back.
  for (int spoil = 0; spoil < 2; spoil++) {
    for (int k = 0; k <= SETTINGS_RECORD_SIZE; k++) {
      fake::reset();
      Settings s;
      settings_defaults(&s);
      strcpy(s.station, "seat-9");
      s.tare = 84000;
      s.per_kg = 230000;
      s.boot = 3;
      CHECK(settings_save(s));
      s.boot = 4;
      CHECK(settings_save(s));
      uint8_t before[fake::kEepromSize];
      memcpy(before, fake::eeprom, sizeof(before));
      s.boot = 5;
      CHECK(settings_save(s));
      // Undo the save beyond k bytes, in the order it writes them (payload, then CRC).
      int slot = -1;
      for (int addr : {SETTINGS_SLOT_A_ADDR, SETTINGS_SLOT_B_ADDR}) {
        if (memcmp(before + addr, fake::eeprom + addr, SETTINGS_RECORD_SIZE) != 0) slot = addr;
      }
      CHECK(slot >= 0);
      for (int i = k; i < SETTINGS_RECORD_SIZE; i++) fake::eeprom[slot + i] = before[slot + i];
      if (k < SETTINGS_RECORD_SIZE) fake::eeprom[slot + k] = spoil ? 0xFF : (uint8_t)(before[slot + k] ^ 0x5A);
      Settings t;
      CHECK(settings_load(&t));
      CHECK_EQ(std::string(t.station), std::string("seat-9"));
      CHECK_EQ(t.tare, 84000);
      CHECK_EQ(t.per_kg, 230000);
      CHECK(t.boot == 4u || t.boot == 5u);
      if (k == SETTINGS_RECORD_SIZE) CHECK_EQ(t.boot, 5u);
      // The next boot goes on from what it found.
      t.boot++;
      CHECK(settings_save(t));
      Settings u;
      CHECK(settings_load(&u));
      CHECK_EQ(u.boot, t.boot);
    }
  }
}

TEST(settings_migrate_the_version_1_record) {
  fake::reset();
  // Firmware 0.1.0's record at 16: "ZT", 1, id, tare, per_kg, boot, CRC-8.
  uint8_t v1[SETTINGS_V1_SIZE] = {'Z', 'T', 1};
  memcpy(v1 + 3, "seat-2", 6);
  v1[20] = 0x10; // tare 16
  v1[24] = 0x20; // per_kg 32
  v1[28] = 41;   // boot 41
  v1[32] = proto_crc8_update(0, v1, 32);
  memcpy(fake::eeprom + SETTINGS_V1_ADDR, v1, sizeof(v1));
  Settings s;
  CHECK(settings_load(&s));
  CHECK_EQ(std::string(s.station), std::string("seat-2"));
  CHECK_EQ(s.tare, 16);
  CHECK_EQ(s.per_kg, 32);
  CHECK_EQ(s.boot, 41u);
  s.boot++;
  CHECK(settings_save(s));
  CHECK_EQ(memcmp(fake::eeprom + SETTINGS_V1_ADDR, v1, sizeof(v1)), 0); // left as it was
  Settings t;
  CHECK(settings_load(&t));
  CHECK_EQ(t.boot, 42u);
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

// A whole inventory through the driver: a field reset, then polls until one is EMPTY. Returns the UIDs read.
static std::vector<std::vector<uint8_t>> inventory(RfidRig &rig, int *steps = nullptr) {
  rig.driver.field(false);
  rig.driver.field(true);
  std::vector<std::vector<uint8_t>> got;
  int n = 0;
  for (; n < 64; n++) {
    TagUid uid;
    Mfrc522::Step r = rig.driver.poll(&uid);
    if (r == Mfrc522::EMPTY) break;
    CHECK_EQ((int)r, (int)Mfrc522::TAG);
    if (r == Mfrc522::TAG) got.push_back(std::vector<uint8_t>(uid.bytes, uid.bytes + uid.len));
  }
  if (steps) *steps = n + 1;
  return got;
}

static TagUid tag_uid(const std::vector<uint8_t> &bytes) {
  TagUid u;
  u.len = (uint8_t)bytes.size();
  memcpy(u.bytes, bytes.data(), bytes.size());
  return u;
}

TEST(mfrc522_reads_4_7_and_10_byte_uids) {
  RfidRig rig;
  CHECK(rig.driver.begin());
  CHECK(!rig.chip.field_on()); // the station's schedule switches the field
  CHECK(inventory(rig).empty());
  rig.chip.place({0xDE, 0xAD, 0xBE, 0xEF});
  std::vector<std::vector<uint8_t>> got = inventory(rig);
  CHECK_EQ(got.size(), (size_t)1);
  CHECK(got.at(0) == std::vector<uint8_t>({0xDE, 0xAD, 0xBE, 0xEF}));
  CHECK_EQ(rig.chip.halts, 1);
  CHECK_EQ(inventory(rig).size(), (size_t)1); // the field reset brings it back from HALT
  rig.chip.clear_tags();
  rig.chip.place({0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66});
  rig.chip.place({0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x9A});
  got = inventory(rig);
  CHECK_EQ(got.size(), (size_t)2);
  CHECK_EQ(rig.chip.collisions > 0, true); // same first three bytes: they collide at cascade level 2
}

TEST(mfrc522_inventory_reads_every_tag_once) {
  RfidRig rig;
  CHECK(rig.driver.begin());
  std::vector<std::vector<uint8_t>> hand;
  uint32_t x = 12345;
  for (int i = 0; i < 13; i++) { // a Zip-Zap hand: NTAG-like 7-byte UIDs 04 xx xx ...
    std::vector<uint8_t> u = {0x04};
    for (int j = 0; j < 6; j++) {
      x = x * 1103515245u + 12345u;
      u.push_back((uint8_t)(x >> 16));
    }
    hand.push_back(u);
    rig.chip.place(u);
  }
  for (int round = 0; round < 3; round++) {
    int steps = 0;
    std::vector<std::vector<uint8_t>> got = inventory(rig, &steps);
    CHECK_EQ(got.size(), (size_t)13);
    CHECK_EQ(steps, 14); // 13 reads and the empty REQA
    std::sort(got.begin(), got.end());
    std::vector<std::vector<uint8_t>> want = hand;
    std::sort(want.begin(), want.end());
    CHECK(got == want);
  }
}

TEST(mfrc522_resolves_early_and_late_collisions) {
  RfidRig rig;
  CHECK(rig.driver.begin());
  // Pairs that differ in the first bit, in bit 8 of byte 0, in the last UID bit (CollPos 0 = 32), in byte 1.
  std::vector<std::vector<uint8_t>> uids = {
      {0x01, 0x20, 0x30, 0x40}, {0x00, 0x20, 0x30, 0x40}, {0x01, 0x20, 0x30, 0xC0}, {0x81, 0x20, 0x30, 0x40},
      {0x01, 0x21, 0x30, 0x40}};
  for (const auto &u : uids) rig.chip.place(u);
  std::vector<std::vector<uint8_t>> got = inventory(rig);
  std::sort(got.begin(), got.end());
  std::sort(uids.begin(), uids.end());
  CHECK(got == uids);
  CHECK(rig.chip.collisions >= 4);
}

TEST(mfrc522_halted_tags_stay_quiet_until_the_field_reset) {
  RfidRig rig;
  CHECK(rig.driver.begin());
  rig.chip.place({1, 2, 3, 4});
  rig.chip.place({5, 6, 7, 8});
  rig.driver.field(true);
  TagUid uid;
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::TAG);
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::TAG);
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::EMPTY); // both halted: REQA is not answered
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::EMPTY);
  rig.driver.field(false);
  rig.driver.field(true);
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::TAG);
}

TEST(mfrc522_presence_checks_keep_every_tag_halted) {
  // Known tags of every UID size, HALTed; presence checks of each find it and, with the next poll's REQA,
  // leave all of them HALTed (that poll stays empty) and miss a tag that has gone. A new tag lying there
  // during a check is left IDLE: the next poll reads it.
  RfidRig rig;
  CHECK(rig.driver.begin());
  std::vector<std::vector<uint8_t>> uids = {
      {0xDE, 0xAD, 0xBE, 0xEF}, {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66}, {0x04, 0x11, 0x22, 0x99, 0x44, 0x55, 0x66},
      {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x9A}};
  for (const auto &u : uids) rig.chip.place(u);
  CHECK_EQ(inventory(rig).size(), uids.size());
  TagPresence known;
  TagChange c;
  for (const auto &u : uids) known.seen(tag_uid(u), 0, 0, &c);
  auto shared = [&](const std::vector<uint8_t> &u) {
    for (uint8_t i = 0; i < uids.size(); i++) {
      if (tag_uid_equal(known.uid_at(i), tag_uid(u))) return known.shares_upper_levels(i);
    }
    return false;
  };
  CHECK(!shared(uids[0]));
  CHECK(shared(uids[1]) && shared(uids[2])); // 88 04 11 22 at cascade level 1, both
  CHECK(!shared(uids[3])); // the 10-byte one shares CL1 with them, not CL2 (88 33 44 55): its SELECT CL2 parts them
  TagUid none;
  for (int round = 0; round < 2; round++) {
    for (const auto &u : uids) {
      CHECK_EQ((int)rig.driver.presence(tag_uid(u), shared(u)), (int)Mfrc522::PRESENT);
      CHECK_EQ((int)rig.driver.poll(&none), (int)Mfrc522::EMPTY);
    }
  }
  for (const FakeTag &t : rig.chip.tags) CHECK_EQ((int)t.state, (int)FakeTag::HALT);
  rig.chip.remove(uids[1]);
  CHECK_EQ((int)rig.driver.presence(tag_uid(uids[1]), true), (int)Mfrc522::ABSENT); // CL1 still answered, CL2 not
  CHECK_EQ((int)rig.driver.presence(tag_uid(uids[2]), true), (int)Mfrc522::PRESENT);
  CHECK_EQ((int)rig.driver.poll(&none), (int)Mfrc522::EMPTY);
  // Not told that it shares CL1 with another known tag: the collision is seen (UNSURE), never a silent miss.
  rig.chip.place(uids[1]);
  CHECK_EQ((int)rig.driver.poll(&none), (int)Mfrc522::TAG); // it had left: IDLE again
  CHECK_EQ((int)rig.driver.presence(tag_uid(uids[2]), false), (int)Mfrc522::UNSURE);
  CHECK_EQ((int)rig.driver.poll(&none), (int)Mfrc522::EMPTY);
  rig.chip.place({0x08, 0x07, 0x06, 0x05}); // a new one, IDLE
  CHECK_EQ((int)rig.driver.presence(tag_uid(uids[0]), false), (int)Mfrc522::PRESENT);
  TagUid got;
  CHECK_EQ((int)rig.driver.poll(&got), (int)Mfrc522::TAG);
  CHECK(tag_uid_equal(got, tag_uid({0x08, 0x07, 0x06, 0x05})));
  rig.chip.clear_tags();
  CHECK_EQ((int)rig.driver.presence(tag_uid(uids[0]), false), (int)Mfrc522::ABSENT); // the WUPA goes unanswered
}

TEST(mfrc522_reports_a_missing_chip_and_recovers) {
  RfidRig rig;
  rig.chip.connected = false;
  CHECK(!rig.driver.begin());
  TagUid uid;
  CHECK_EQ((int)rig.driver.poll(&uid), (int)Mfrc522::FAILED); // not EMPTY: a dead chip proves nothing
  CHECK_EQ((int)rig.driver.presence(tag_uid({1, 2, 3, 4}), false), (int)Mfrc522::UNSURE); // and misses nothing
  CHECK_EQ((int)rig.driver.check(), (int)Mfrc522::DOWN);
  rig.chip.connected = true;
  rig.chip.place({1, 2, 3, 4});
  // Back: a reset is started without waiting, and the next call finds it up and configures it.
  CHECK_EQ((int)rig.driver.check(), (int)Mfrc522::STARTING);
  CHECK_EQ((int)rig.driver.check(), (int)Mfrc522::UP);
  CHECK_EQ((int)rig.driver.check(), (int)Mfrc522::UP);
  CHECK_EQ(inventory(rig).size(), (size_t)1);
}
