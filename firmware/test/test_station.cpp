// The whole station firmware (station.cpp) on the Arduino fake, with HX711 and MFRC522 models: what the
// host sees on the serial line for boot, commands, button, load cell and tags. Built twice: as a seat
// station and (-DSTATION_KIND_PILE) as a pile station; each build runs the tests that apply to it.
#include <Arduino.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "check.h"
#include "fake.h"
#include "fake_devices.h"
#include "hx711.h"
#include "pins.h"
#include "protocol.h"
#include "station.h"
#include "tag_presence.h"

namespace {

struct Rig {
  FakeHx711 hx;
  FakeMfrc522 rfid;

  explicit Rig(bool keep_eeprom = false) {
    uint8_t saved[fake::kEepromSize];
    memcpy(saved, fake::eeprom, sizeof(saved));
    fake::reset();
    if (keep_eeprom) memcpy(fake::eeprom, saved, sizeof(saved));
    hx.attach(PIN_HX711_DOUT, PIN_HX711_SCK);
    rfid.attach(PIN_RFID_SS);
    fake::now_us = 1000000; // the bootloader took a while
    fake::on_write = [this](uint8_t p, uint8_t l) {
      hx.on_write(p, l);
      rfid.on_write(p, l);
    };
    fake::on_time = [this]() { hx.on_time(); };
    fake::spi_device = [this](uint8_t out) { return rfid.spi(out); };
  }

  void boot() { station_setup(); }

  void run_ms(uint32_t ms) {
    uint64_t end = fake::now_us + (uint64_t)ms * 1000;
    while (fake::now_us < end) {
      fake::advance_us(1000);
      station_loop();
    }
  }

  // Every line sent since the last call, each checked for framing, returned without `*XX`. Empty lines
  // are skipped, as hosts do (the station sends one before its banner).
  std::vector<std::string> lines() {
    std::vector<std::string> out;
    std::string all = fake::take_serial();
    size_t start = 0;
    for (size_t nl = all.find('\n'); nl != std::string::npos; nl = all.find('\n', start)) {
      std::string line = all.substr(start, nl - start);
      if (line.empty()) {
        start = nl + 1;
        continue;
      }
      size_t plen = 0;
      CHECK_EQ((int)proto_check_frame(line.data(), line.size(), &plen), STATUS_OK);
      out.push_back(line.substr(0, plen));
      start = nl + 1;
    }
    CHECK_EQ(start, all.size()); // nothing unterminated
    return out;
  }

  static std::string cmd(const std::string &payload) {
    char crc[4];
    snprintf(crc, sizeof(crc), "%02X", proto_crc8(payload.data(), payload.size()));
    return payload + "*" + crc + "\n";
  }

  std::vector<std::string> send(const std::string &payload, uint32_t run = 1) {
    fake::send_serial(cmd(payload));
    run_ms(run);
    return lines();
  }
};

// "E <seq> <t> REST" -> "REST", checking seq and returning t.
std::string event_body(const std::string &line, uint32_t seq, uint32_t *t = nullptr) {
  unsigned long s = 0, tt = 0;
  int used = 0;
  if (sscanf(line.c_str(), "E %lu %lu %n", &s, &tt, &used) != 2) return "not an event: " + line;
  CHECK_EQ((uint32_t)s, seq);
  if (t) *t = (uint32_t)tt;
  return line.substr((size_t)used);
}

} // namespace

#if STATION_HAS_PAD

TEST(station_banner_and_boot_counter) {
  Rig rig;
  rig.boot();
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  CHECK_EQ(l.at(0), std::string("ZT " FW_VERSION " proto=2 kind=seat id=unset boot=1"));
  Rig again(true); // same EEPROM: a reset
  again.boot();
  CHECK_EQ(again.lines().at(0), std::string("ZT " FW_VERSION " proto=2 kind=seat id=unset boot=2"));
}

TEST(station_banner_starts_a_fresh_line) {
  // After a reset in the middle of a line the host holds the cut line; the banner must not be glued to it.
  Rig rig;
  fake::serial_out = "ok 30 fw=0"; // what the last boot had sent of its line when it was reset
  rig.boot();
  std::string all = fake::take_serial();
  CHECK_EQ(all.substr(0, 14), std::string("ok 30 fw=0\nZT "));
}

TEST(station_ping_info_and_bad_lines) {
  Rig rig;
  rig.boot();
  rig.lines();
  fake::send_serial(Rig::cmd("7 ping"));
  uint32_t t = micros() + 1000; // the line is read in the next loop pass
  rig.run_ms(1);
  CHECK_EQ(rig.lines().at(0), "ok 7 t=" + std::to_string(t));
  CHECK_EQ(rig.send("8 info").at(0), std::string("ok 8 fw=" FW_VERSION " proto=2 kind=seat id=unset boot=1"));
  fake::send_serial("9 ping*00\n7 ping\n");
  rig.run_ms(1);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(l.at(0), std::string("err - 4"));
  CHECK_EQ(l.at(1), std::string("err - 3"));
  fake::send_serial(std::string(300, 'x') + "\n");
  rig.run_ms(1);
  CHECK_EQ(rig.lines().at(0), std::string("err - 1"));
  CHECK_EQ(rig.send("10 zap").at(0), std::string("err 10 6"));
  CHECK_EQ(rig.send("11 lamp blink 1 400 0").at(0), std::string("err 11 8"));
  // Two commands in one write: two replies, in order.
  fake::send_serial(Rig::cmd("12 lamp on") + Rig::cmd("13 lamp off"));
  rig.run_ms(1);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(l.at(0), std::string("ok 12"));
  CHECK_EQ(l.at(1), std::string("ok 13"));
}

TEST(station_id_set_persists) {
  Rig rig;
  rig.boot();
  rig.lines();
  CHECK_EQ(rig.send("1 id set seat-3").at(0), std::string("ok 1 id=seat-3"));
  Rig again(true);
  again.boot();
  CHECK_EQ(again.lines().at(0), std::string("ZT " FW_VERSION " proto=2 kind=seat id=seat-3 boot=2"));
  fake::eeprom_broken = true;
  CHECK_EQ(again.send("2 id set seat-4").at(0), std::string("err 2 12"));
  CHECK_EQ(again.send("3 info").at(0), std::string("ok 3 fw=" FW_VERSION " proto=2 kind=seat id=seat-3 boot=2"));
}

TEST(station_button_events_carry_the_first_edge) {
  Rig rig;
  rig.boot();
  rig.lines();
  uint32_t t0 = micros() + 123;
  fake::now_us += 123;
  fake::set_input(PIN_BUTTON, LOW); // pressed (to GND): the ISR takes micros()
  fake::now_us += 400;
  fake::set_input(PIN_BUTTON, HIGH); // bounce
  fake::now_us += 300;
  fake::set_input(PIN_BUTTON, LOW);
  rig.run_ms(3);
  CHECK(rig.lines().empty()); // still settling
  rig.run_ms(10);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  uint32_t t = 0;
  CHECK_EQ(event_body(l.at(0), 0, &t), std::string("BTN+"));
  CHECK_EQ(t, t0);
  uint32_t t1 = micros();
  fake::set_input(PIN_BUTTON, HIGH);
  rig.run_ms(10);
  l = rig.lines();
  CHECK_EQ(event_body(l.at(0), 1, &t), std::string("BTN-"));
  CHECK_EQ(t, t1);
}

TEST(station_short_press_while_the_loop_is_blocked) {
  // A 9 ms press that settles and ends while loop() is away (a long RFID step): both changes still come,
  // stamped with their first edges.
  Rig rig;
  rig.boot();
  rig.lines();
  uint32_t t0 = micros() + 100;
  fake::now_us += 100;
  fake::set_input(PIN_BUTTON, LOW);
  fake::now_us += 300;
  fake::set_input(PIN_BUTTON, HIGH); // bounce
  fake::now_us += 200;
  fake::set_input(PIN_BUTTON, LOW);
  fake::now_us += 8500;
  uint32_t t1 = micros();
  fake::set_input(PIN_BUTTON, HIGH);
  fake::now_us += 6000; // loop() comes back only now
  rig.run_ms(1);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  uint32_t t = 0;
  CHECK_EQ(event_body(l.at(0), 0, &t), std::string("BTN+"));
  CHECK_EQ(t, t0);
  CHECK_EQ(event_body(l.at(1), 1, &t), std::string("BTN-"));
  CHECK_EQ(t, t1);
}

TEST(station_scale_tare_calibrate_weigh) {
  Rig rig;
  rig.hx.value = 1000;
  rig.boot();
  rig.run_ms(1000);
  CHECK_EQ(rig.lines().size(), (size_t)1); // the banner; uncalibrated: no weight events
  CHECK_EQ(rig.send("1 scale").at(0), std::string("ok 1 tare=0 per_kg=0"));
  fake::send_serial(Rig::cmd("2 tare") + Rig::cmd("3 ping"));
  rig.run_ms(500);
  CHECK(rig.lines().empty()); // tare waits for 8 samples; the ping waits behind it
  rig.run_ms(500);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(l.at(0), std::string("ok 2 tare=1000"));
  CHECK_EQ(l.at(1).substr(0, 7), std::string("ok 3 t="));
  rig.hx.value = 1000 + 210000; // 500 g at 420000 counts/kg
  rig.run_ms(300);
  rig.lines();
  CHECK_EQ(rig.send("4 calibrate 500", 1000).at(0), std::string("ok 4 per_kg=420000"));
  rig.run_ms(600); // the filter settles on five samples
  std::vector<std::string> w = rig.lines();
  CHECK_EQ(w.size(), (size_t)1);
  CHECK_EQ(event_body(w.at(0), 0), std::string("W 500.0 S"));
  rig.hx.value = 1000 + 210000 + 4200; // +10 g
  rig.run_ms(1000);
  w = rig.lines();
  CHECK_EQ(w.size(), (size_t)2);
  CHECK_EQ(event_body(w.at(0), 1), std::string("W 510.0 U"));
  CHECK_EQ(event_body(w.at(1), 2), std::string("W 510.0 S"));
  CHECK_EQ(rig.send("5 raw", 200).at(0), std::string("ok 5 raw=215200"));
  CHECK_EQ(rig.send("6 stream on").at(0), std::string("ok 6"));
  rig.run_ms(1000);
  CHECK_EQ(rig.lines().size(), (size_t)10); // every sample while streaming
  rig.send("7 stream off");
  rig.run_ms(1000);
  CHECK(rig.lines().empty());
  CHECK_EQ(rig.hx.pulses_with_irq_enabled, 0);
}

TEST(station_scale_missing) {
  Rig rig;
  rig.hx.connected = false;
  rig.boot();
  rig.run_ms(1500);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(event_body(l.at(1), 0), std::string("FAULT+ scale"));
  CHECK_EQ(rig.send("1 tare", 2500).at(0), std::string("err 1 10"));
  rig.hx.connected = true;
  rig.run_ms(200);
  CHECK_EQ(event_body(rig.lines().at(0), 1), std::string("FAULT- scale"));
}

TEST(station_scale_railed_codes_are_no_weight) {
  // 0x7FFFFF / 0x800000 are the HX711's railed codes: the input is beyond its range (an overloaded cell, a
  // broken bridge wire). They are no weight: no W while the reading is railed, FAULT+ scale once it has
  // been railed for 1 s (as for a silent HX711), FAULT- and weights again when it is back in range.
  Rig rig;
  rig.hx.value = 1000;
  rig.boot();
  rig.send("1 tare", 1000);
  rig.hx.value = 1000 + 210000;
  rig.send("2 calibrate 500", 1000);
  rig.run_ms(600);
  rig.lines();
  CHECK_EQ(rig.send("3 stream on").at(0), std::string("ok 3"));
  for (int32_t railed : {(int32_t)HX711_MAX_CODE, (int32_t)HX711_MIN_CODE}) {
    rig.hx.value = railed;
    rig.run_ms(1300);
    std::vector<std::string> l = rig.lines();
    bool weight = false, fault = false;
    for (const std::string &line : l) {
      if (line.find(" W ") != std::string::npos) weight = true;
      if (line.find("FAULT+ scale") != std::string::npos) fault = true;
    }
    CHECK(!weight);
    CHECK(fault);
    CHECK_EQ(rig.send("4 raw", 200).at(0), "ok 4 raw=" + std::to_string(railed)); // raw still shows the code
    CHECK_EQ(rig.send("5 tare", 2500).at(0), std::string("err 5 10")); // no reading to average: SENSOR_TIMEOUT
    rig.hx.value = 1000 + 4200;
    rig.run_ms(300);
    l = rig.lines();
    CHECK(!l.empty() && l.at(0).find("FAULT- scale") != std::string::npos);
    CHECK(l.size() >= 2 && l.at(1).find(" W 10.0 ") != std::string::npos);
  }
}

TEST(station_lamp_blinks) {
  Rig rig;
  rig.boot();
  rig.send("1 lamp blink 100 100 2");
  int changes = 0;
  uint8_t last = fake::pin_level[PIN_LAMP];
  for (int i = 0; i < 600; i++) {
    rig.run_ms(1);
    if (fake::pin_level[PIN_LAMP] != last) changes++;
    last = fake::pin_level[PIN_LAMP];
  }
  CHECK_EQ(changes, 3); // on(100) off(100) on(100) off: three edges after the first
  CHECK_EQ((int)fake::pin_level[PIN_LAMP], LOW);
}

#else // pile station

TEST(station_pile_banner_and_unsupported_commands) {
  Rig rig;
  rig.boot();
  CHECK_EQ(rig.lines().at(0), std::string("ZT " FW_VERSION " proto=2 kind=pile id=unset boot=1"));
  CHECK_EQ(rig.send("1 tare").at(0), std::string("err 1 9"));
  CHECK_EQ(rig.send("2 lamp on").at(0), std::string("err 2 9"));
  CHECK_EQ(rig.send("3 raw").at(0), std::string("err 3 9"));
  CHECK_EQ(rig.send("4 ping").at(0).substr(0, 7), std::string("ok 4 t="));
}

#endif

// "TAG+ <uid> <window>" -> {uid part, window}.
static std::string tag_body(const std::string &body, uint32_t *window) {
  size_t sp = body.rfind(' ');
  if (window) *window = (uint32_t)std::stoul(body.substr(sp + 1));
  return body.substr(0, sp);
}

// Both kinds have the reader.
TEST(station_tag_arrives_and_leaves_with_their_windows) {
  Rig rig;
  rig.boot();
  rig.run_ms(100);
  rig.lines();
  uint32_t placed = micros();
  rig.rfid.place({0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66});
  rig.run_ms(10);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  uint32_t t = 0, window = 0;
  CHECK_EQ(tag_body(event_body(l.at(0), 0, &t), &window), std::string("TAG+ 04112233445566"));
  // The poll that read it, and the last poll before it that nobody answered: it arrived in between.
  CHECK(t >= placed);
  CHECK(t - window <= placed);
  CHECK(window <= 2500); // polls every loop pass (1 ms here) with no known tag to check
  int selects = rig.rfid.selects;
  rig.run_ms(500);
  CHECK(rig.lines().empty()); // checked again and again, reported once
  CHECK_EQ(rig.rfid.selects, selects); // presence checks never re-read it
  CHECK(rig.rfid.requests > 100);
  rig.rfid.clear_tags();
  uint32_t gone = micros();
  rig.run_ms(60);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  CHECK_EQ(tag_body(event_body(l.at(0), 1, &t), &window), std::string("TAG- 04112233445566"));
  // The end of the inventory that did not read it (after two missed checks), and the last check it
  // answered: it left in between.
  CHECK(t >= gone);
  CHECK(t - window <= gone);
  // A round, two checks, the field reset and the inventory's empty polls.
  CHECK(window <= RFID_CHECK_PERIOD_US + RFID_FIELD_OFF_US + RFID_FIELD_GUARD_US + 10000);
  if (window > RFID_CHECK_PERIOD_US + RFID_FIELD_OFF_US + RFID_FIELD_GUARD_US + 10000) printf("  window %u us\n", window);
}

TEST(station_many_tags_on_one_reader) {
  Rig rig;
  rig.boot();
  rig.run_ms(100);
  rig.lines();
  std::vector<std::vector<uint8_t>> hand;
  for (uint8_t i = 0; i < 13; i++) {
    hand.push_back({0x04, (uint8_t)(0x10 + i), 0x22, (uint8_t)(0x33 * i), 0x44, (uint8_t)(0x55 ^ i), 0x66});
    rig.rfid.place(hand.back());
  }
  rig.run_ms(40); // 13 reads, one per loop pass
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)13);
  for (size_t i = 0; i < l.size(); i++) CHECK_EQ(event_body(l.at(i), (uint32_t)i).substr(0, 5), std::string("TAG+ "));
  rig.run_ms(500);
  CHECK(rig.lines().empty());
  // A card laid on top of the others: TAG+; one taken away: TAG- after two missed checks.
  rig.rfid.place({0x08, 0x01, 0x02, 0x03});
  rig.rfid.remove(hand.at(5));
  rig.run_ms(100);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(tag_body(event_body(l.at(0), 13), nullptr), std::string("TAG+ 08010203"));
  char want[32];
  snprintf(want, sizeof(want), "TAG- 04%02X22%02X44%02X66", 0x15, (0x33 * 5) & 0xFF, 0x55 ^ 5);
  CHECK_EQ(tag_body(event_body(l.at(1), 14), nullptr), std::string(want));
  rig.run_ms(300);
  CHECK(rig.lines().empty());
}

TEST(station_more_tags_than_slots_raise_a_fault) {
  Rig rig;
  rig.boot();
  rig.run_ms(100);
  rig.lines();
  for (int i = 0; i <= TAG_MAX_PRESENT; i++) rig.rfid.place({0x20, (uint8_t)i, 0x00, 0x01});
  rig.run_ms(400);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)(TAG_MAX_PRESENT + 1));
  // Which one got no slot (the anticollision order decides)?
  std::vector<bool> reported(TAG_MAX_PRESENT + 1, false);
  bool fault = false;
  for (size_t i = 0; i < l.size(); i++) {
    std::string body = event_body(l.at(i), (uint32_t)i);
    if (body == "FAULT+ rfid") {
      fault = true;
      continue;
    }
    unsigned b = 0;
    CHECK_EQ(sscanf(body.c_str(), "TAG+ 20%02X0001", &b), 1);
    if (b <= TAG_MAX_PRESENT) reported[b] = true;
  }
  CHECK(fault);
  int waiting = -1;
  for (int i = 0; i <= TAG_MAX_PRESENT; i++) {
    if (!reported[(size_t)i]) waiting = i;
  }
  CHECK(waiting >= 0);
  int leaving = waiting == 0 ? 1 : 0;
  // A tracked one leaves: its slot frees, the field is reset, and the one that waited (halted, unseen since)
  // gets the slot.
  rig.rfid.remove({0x20, (uint8_t)leaving, 0x00, 0x01});
  rig.run_ms(400);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)3);
  char want[32];
  snprintf(want, sizeof(want), "TAG- 20%02X0001", leaving);
  CHECK_EQ(tag_body(event_body(l.at(0), TAG_MAX_PRESENT + 1), nullptr), std::string(want));
  snprintf(want, sizeof(want), "TAG+ 20%02X0001", waiting);
  CHECK_EQ(tag_body(event_body(l.at(1), TAG_MAX_PRESENT + 2), nullptr), std::string(want));
  CHECK_EQ(event_body(l.at(2), TAG_MAX_PRESENT + 3), std::string("FAULT- rfid"));
}

TEST(station_slap_stamped_in_the_isr_one_per_impact) {
  Rig rig;
  rig.boot();
  rig.run_ms(50);
  rig.lines();
  CHECK_EQ((int)fake::pin_mode[PIN_SLAP], INPUT_PULLUP); // quiet when no sensor is fitted
  CHECK_EQ((int)fake::pin_level[PIN_SLAP], HIGH);
  rig.run_ms(200);
  CHECK(rig.lines().empty());
  // An impact 321 us into a loop pass, ringing for 4 ms.
  uint32_t impact = micros() + 321;
  fake::now_us += 321;
  for (int i = 0; i < 16; i++) {
    fake::set_input(PIN_SLAP, LOW);
    fake::now_us += 125;
    fake::set_input(PIN_SLAP, HIGH);
    fake::now_us += 125;
  }
  rig.run_ms(40);
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  uint32_t t = 0;
  CHECK_EQ(event_body(l.at(0), 0, &t), std::string("SLAP"));
  CHECK_EQ(t, impact);
  // The next impact, 30 ms later.
  uint32_t second = micros();
  fake::set_input(PIN_SLAP, LOW);
  fake::set_input(PIN_SLAP, HIGH);
  rig.run_ms(5);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)1);
  CHECK_EQ(event_body(l.at(0), 1, &t), std::string("SLAP"));
  CHECK_EQ(t, second);
}

TEST(station_reader_replug_never_blocks_the_loop) {
  // protocol.md, RFID timing: no loop pass is longer than one RFID step (~12 ms at worst). Bringing a
  // re-plugged reader back up (reset, oscillator start-up, configuration) must not take a pass longer.
  Rig rig;
  rig.boot();
  rig.run_ms(200);
  rig.lines();
  rig.rfid.place({0x04, 0x11, 0x22, 0x33});
  rig.run_ms(200);
  rig.rfid.connected = false;
  uint64_t longest = 0;
  auto run = [&](uint32_t ms) {
    uint64_t end = fake::now_us + (uint64_t)ms * 1000;
    while (fake::now_us < end) {
      fake::advance_us(200);
      uint64_t before = fake::now_us;
      station_loop();
      if (fake::now_us - before > longest) longest = fake::now_us - before;
    }
  };
  run(300);
  rig.rfid.connected = true;
  run(500);
  std::vector<std::string> l = rig.lines();
  CHECK(l.size() >= 3); // TAG+, FAULT+ rfid, FAULT- rfid (and nothing invented)
  CHECK_EQ(event_body(l.at(1), 1), std::string("FAULT+ rfid"));
  CHECK_EQ(event_body(l.at(2), 2), std::string("FAULT- rfid"));
  CHECK(longest <= 12000);
  if (longest > 12000) printf("  the longest loop pass took %llu us\n", (unsigned long long)longest);
}

TEST(station_rfid_missing_then_back) {
  Rig rig;
  rig.rfid.connected = false;
  rig.boot();
  std::vector<std::string> l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(event_body(l.at(1), 0), std::string("FAULT+ rfid"));
  rig.run_ms(200);
  CHECK(rig.lines().empty()); // reported once
  rig.rfid.connected = true;
  rig.rfid.place({1, 2, 3, 4});
  rig.run_ms(300);
  l = rig.lines();
  CHECK_EQ(l.size(), (size_t)2);
  CHECK_EQ(event_body(l.at(0), 1), std::string("FAULT- rfid"));
  uint32_t t = 0, window = 0;
  CHECK_EQ(tag_body(event_body(l.at(1), 2, &t), &window), std::string("TAG+ 01020304"));
  CHECK_EQ(window, t); // no poll was ever empty this boot: the window reaches back to power-on
}
