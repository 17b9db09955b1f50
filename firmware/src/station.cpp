// Station firmware: boot banner, event lines, command dispatch. See hardware/protocol.md.
//
// The loop never blocks for long: each pass handles serial input, the button, one HX711 sample when one is
// ready, one step of the RFID inventory (one tag read, ~4-6 ms), and the lamp. Time-critical work happens
// in the button ISR (each edge's micros() and level); everything else only reports.
//
// Commands that need load-cell samples (tare, calibrate, raw) are answered when their samples have
// arrived. Meanwhile no further input is read, so replies stay in command order: the next command waits in
// the 64-byte serial receive buffer (hosts keep one command in flight; see protocol.md).
#include "station.h"

#include <Arduino.h>
#include <string.h>

#include "button.h"
#include "hx711.h"
#include "lamp.h"
#include "mfrc522.h"
#include "pins.h"
#include "protocol.h"
#include "settings.h"
#include "slap.h"
#include "tag_presence.h"
#include "weight_filter.h"

#if defined(__AVR__)
// The MFRC522 must sit on the hardware SPI pins; pins.h documents them, the core defines them.
static_assert(PIN_RFID_MOSI == MOSI && PIN_RFID_MISO == MISO && PIN_RFID_SCK == SCK, "pins.h: SPI pins");
static_assert(PIN_RFID_SS == SS || PIN_RFID_SS == 10, "pins.h: RFID_SS");
static_assert(digitalPinToInterrupt(PIN_BUTTON) != NOT_AN_INTERRUPT, "pins.h: BUTTON needs an external interrupt");
static_assert(digitalPinToInterrupt(PIN_SLAP) != NOT_AN_INTERRUPT, "pins.h: SLAP needs an external interrupt");
#endif

namespace {

LineReader reader;
LineWriter out;
Settings settings;
uint32_t next_seq = 0;

Mfrc522 rfid(PIN_RFID_SS, PIN_RFID_RST);
TagPresence tags;
SlapDetector slap;

// The RFID schedule (mfrc522.h): the field stays on and every known tag HALTed; each step is a poll (REQA)
// for new tags, then — when nobody answered it — one presence check of a known tag, round robin. A field
// reset (off >= 5.1 ms, on >= 5.1 ms before the first poll: ISO 14443-3) starts a full inventory: every tag
// lost power and answers the polls again, one read per step, until RFID_INVENTORY_EMPTY_POLLS polls in a
// row found nobody new (a lost answer cannot end it early). It comes at start, after the reader came back,
// to find tags that found no slot once a slot is free, and when a tag missed TAG_MISSES_TO_LEAVE checks in a
// row: such a tag leaves (TAG-) only if the inventory does not read it; a lost answer never drops a tag that
// is still there (halted, it would answer no poll again).
enum RfidPhase : uint8_t {
  RFID_DOWN,      // the chip does not answer (or is starting): check it again
  RFID_FIELD_OFF, // field off (a reset): every tag loses power
  RFID_FIELD_ON,  // field on, the guard time before the first poll
  RFID_RUN        // polls and presence checks
};
struct Rfid {
  RfidPhase phase;
  uint32_t phase_us;      // when the phase began
  uint32_t last_poll_us;  // the last poll
  uint32_t last_empty_us; // the last poll nobody answered (TAG+ windows start there); 0 at boot
  uint32_t round_us;      // when the current round of presence checks began
  uint32_t health_us;     // when the chip was last checked (VersionReg, TModeReg)
  uint8_t next_check;     // the slot to check next
  int8_t recheck;         // a slot that just missed its check: checked again in the next step (-1: none)
  bool honest;            // the next empty poll proves an empty field (false right after a failed read)
  bool resync;            // a field reset is due (a suspect to decide, or a tag found no slot and one is free)
  bool recount;           // a field reset's inventory is running (no presence checks meanwhile)
  uint8_t empties;        // honest empty polls in a row during the inventory
  uint8_t failures;       // failed reads in a row (only a read or an honest empty poll ends the run)
  bool read_fault;        // RFID_MAX_FAILURES failed reads in a row; cleared only by an honest empty poll
  bool chip_fault;        // the MFRC522 does not answer on SPI
  bool reported_fault;    // FAULT+ rfid sent and not yet cleared
} rf;

#if STATION_HAS_PAD
ButtonDebouncer button;
Hx711 scale;
WeightFilter filter;
Lamp lamp;
bool streaming = false;
bool scale_fault = false;
uint32_t last_sample_ms = 0;

// A command waiting for load-cell samples.
struct Pending {
  bool active;
  uint8_t verb; // CMD_TARE, CMD_CALIBRATE or CMD_RAW
  uint16_t id;
  uint32_t grams;
  uint8_t wanted;
  uint8_t got;
  int32_t sum; // 8 x 24-bit readings fit easily
  uint32_t progress_ms;
} pending;
#endif

void send() {
  out.finish();
  Serial.write(out.data(), out.length());
}

void send_err(bool has_id, uint16_t id, uint8_t code) {
  proto_begin_err(out, has_id, id, code);
  send();
}

void begin_event(uint32_t t_us, const char *name) { proto_begin_event(out, next_seq++, t_us, name); }

void emit_fault(bool raised, const char *device) {
  begin_event(micros(), raised ? "FAULT+" : "FAULT-");
  out.ch(' ').text(device);
  send();
}

void emit_tag(const TagChange &c) {
  begin_event(c.t_us, c.arrived ? "TAG+" : "TAG-");
  out.ch(' ').hex(c.uid.bytes, c.uid.len).ch(' ').u32(c.window_us);
  send();
}

// ------------------------------------------------------------------------------------------------- pad
#if STATION_HAS_PAD

#if defined(__AVR__)
volatile uint8_t *button_in; // the button pin's input register and bit: a fast read inside the ISR
uint8_t button_mask;
bool button_level() { return (*button_in & button_mask) == 0; } // to GND, internal pull-up
#else
bool button_level() { return digitalRead(PIN_BUTTON) == LOW; }
#endif

void on_button_edge() { // ISR: take the time first, then the level, think later
  uint32_t t = micros();
  button.on_edge(t, button_level());
}

void poll_button() {
  for (;;) {
    // The time and the level first, with interrupts on: the section below only looks at the ISR's state, so
    // a slap or button edge waits at most that long for its stamp (hardware/protocol.md, Time). An edge
    // after this micros() is newer than `now`: poll() then takes its line as not yet quiet.
    uint32_t now = micros();
    bool level = button_level();
    if (button.idle(level)) return; // nothing queued, no edge pending, no change: no critical section
    ButtonEvent e;
    noInterrupts(); // the debouncer's state is shared with the ISR: two short sections instead of one long
    button.advance(now, level);
    interrupts();
    noInterrupts();
    bool changed = button.take(&e);
    interrupts();
    if (!changed) return;
    begin_event(e.t_us, e.pressed ? "BTN+" : "BTN-");
    send();
  }
}

void emit_weight(uint32_t t_us, int32_t dg, bool stable) {
  begin_event(t_us, "W");
  out.ch(' ').decigrams(dg).ch(' ').ch(stable ? 'S' : 'U');
  send();
}

void finish_pending(int32_t average) {
  Pending &p = pending;
  p.active = false;
  if (p.verb == CMD_RAW) {
    proto_begin_ok(out, p.id);
    out.field_i32("raw", average);
    send();
    return;
  }
  Settings next = settings;
  if (p.verb == CMD_TARE) {
    next.tare = average;
  } else if (!weight_calibration(average, settings.tare, p.grams, &next.per_kg)) {
    send_err(true, p.id, STATUS_CALIBRATION_FAILED);
    return;
  }
  if (!settings_save(next)) {
    send_err(true, p.id, STATUS_EEPROM_FAILED);
    return;
  }
  settings = next;
  filter.reset(); // earlier samples were weighed with the old calibration
  proto_begin_ok(out, p.id);
  if (p.verb == CMD_TARE) out.field_i32("tare", settings.tare);
  else out.field_i32("per_kg", settings.per_kg);
  send();
}

// No usable reading for a while: FAULT+ scale after SCALE_FAULT_MS, a waiting tare/calibrate gives up.
void scale_silent(uint32_t now_ms) {
  if (!scale_fault && (uint32_t)(now_ms - last_sample_ms) > SCALE_FAULT_MS) {
    scale_fault = true;
    emit_fault(true, "scale");
  }
  if (pending.active && (uint32_t)(now_ms - pending.progress_ms) > SCALE_COMMAND_TIMEOUT_MS) {
    pending.active = false;
    send_err(true, pending.id, STATUS_SENSOR_TIMEOUT);
  }
}

void poll_scale() {
  uint32_t now_ms = millis();
  if (!scale.ready()) {
    scale_silent(now_ms);
    return;
  }
  uint32_t t_us = micros();
  int32_t raw = scale.read();
  if (pending.active && pending.verb == CMD_RAW) finish_pending(raw); // raw shows even a railed code
  // A railed code is no reading: no weight, not counted by tare/calibrate, and after SCALE_FAULT_MS of
  // them FAULT+ scale, as when the HX711 sends nothing (hardware/protocol.md, Events).
  if (hx711_railed(raw)) {
    scale_silent(now_ms);
    return;
  }
  last_sample_ms = now_ms;
  if (scale_fault) {
    scale_fault = false;
    emit_fault(false, "scale");
  }
  if (pending.active) {
    pending.sum += raw;
    pending.got++;
    pending.progress_ms = now_ms;
    if (pending.got == pending.wanted) {
      // Round half away from zero, like the host would.
      int32_t n = pending.wanted;
      int32_t avg = pending.sum >= 0 ? (pending.sum + n / 2) / n : (pending.sum - n / 2) / n;
      finish_pending(avg);
    }
  }
  int32_t dg;
  if (!weight_decigrams(raw, settings.tare, settings.per_kg, &dg)) return; // not calibrated yet
  WeightReport r;
  bool report = filter.feed(dg, &r);
  if (streaming) emit_weight(t_us, dg, filter.stable());
  else if (report) emit_weight(t_us, r.dg, r.stable);
}

void start_pending(const Command &cmd, uint8_t wanted) {
  pending.active = true;
  pending.verb = cmd.verb;
  pending.id = cmd.id;
  pending.grams = cmd.arg[0];
  pending.wanted = wanted;
  pending.got = 0;
  pending.sum = 0;
  pending.progress_ms = millis();
}

void update_lamp() { digitalWrite(PIN_LAMP, lamp.level(millis()) ? HIGH : LOW); }

#endif // STATION_HAS_PAD

// ------------------------------------------------------------------------------------------------ slap

void on_slap_edge() { slap.on_edge(micros()); } // ISR (falling edge): the time first, like the button's

void poll_slap() {
  for (;;) {
    if (slap.idle()) return; // nothing queued, the line quiet: no critical section
    uint32_t now = micros(); // with interrupts on (as in poll_button): the section below stays short
    uint32_t t_us = 0;
    noInterrupts(); // the detector's state is shared with the ISR
    bool impact = slap.poll(now, &t_us);
    interrupts();
    if (!impact) return;
    begin_event(t_us, "SLAP");
    send();
  }
}

// ------------------------------------------------------------------------------------------------ rfid

// FAULT+ rfid while the reader cannot give a complete, trustworthy picture of its field: the chip does
// not answer, more tags lie on it than it can track, or its reads keep failing.
void rfid_update_fault() {
  bool fault = rf.chip_fault || tags.overflow() || rf.read_fault;
  if (fault != rf.reported_fault) emit_fault(fault, "rfid");
  rf.reported_fault = fault;
}

void rfid_field_reset(uint32_t now) {
  rfid.field(false);
  rf.recheck = -1; // the inventory decides now
  rf.phase = RFID_FIELD_OFF;
  rf.phase_us = now;
  rf.resync = false;
}

// One presence check of the next known tag, when one is due (a round checks every tag once; a new round
// begins RFID_CHECK_PERIOD_US after the last one began, at the earliest). A tag that missed its check is
// checked again in the next step, out of turn: a lost answer is cleared up at once, and a tag that has gone
// becomes a suspect ~one step after its first miss instead of a round later.
void rfid_check_presence() {
  int8_t slot = rf.recheck;
  uint32_t t_us = micros();
  if (slot >= 0 && tags.next_slot((uint8_t)slot) == slot) { // still tracked
    rf.recheck = -1;
  } else {
    slot = tags.next_slot(rf.next_check);
    if (slot < 0) return;
    if ((uint8_t)slot < rf.next_check || rf.next_check == 0) { // a new round
      if ((uint32_t)(t_us - rf.round_us) < RFID_CHECK_PERIOD_US) return;
      rf.round_us = t_us;
    }
    rf.next_check = (uint8_t)(slot + 1);
    if (rf.next_check >= TAG_MAX_PRESENT) rf.next_check = 0;
  }
  Mfrc522::Presence p = rfid.presence(tags.uid_at((uint8_t)slot), tags.shares_upper_levels((uint8_t)slot));
  TagPresence::Check c = p == Mfrc522::PRESENT  ? TagPresence::ANSWERED
                         : p == Mfrc522::ABSENT ? TagPresence::MISSED
                                                : TagPresence::UNSURE;
  if (tags.checked((uint8_t)slot, c, t_us)) rf.resync = true; // a suspect: a full inventory decides
  else if (c == TagPresence::MISSED) rf.recheck = slot;
}

// The inventory after a field reset is complete: every tag in the field was read (or found no slot).
void rfid_inventory_done() {
  rf.recount = false;
  TagChange left;
  bool freed = false;
  uint32_t end_us = micros(); // they were surely gone by now (any single miss may have been a lost answer)
  while (tags.left(end_us, &left)) { // suspects it did not read have left
    emit_tag(left);
    freed = true;
  }
  if (freed && tags.overflow()) rf.resync = true; // a slot is free: find the tags that had none (field reset)
  rfid_update_fault();
}

void poll_rfid() {
  uint32_t now = micros();
  switch (rf.phase) {
  case RFID_DOWN:
    switch (rfid.check()) {
    case Mfrc522::DOWN:
      if (!rf.chip_fault) {
        rf.chip_fault = true; // presence unknown meanwhile: nothing leaves
        rfid_update_fault();
      }
      rf.phase_us = now;
      return;
    case Mfrc522::STARTING:
      return; // ask again next loop pass
    case Mfrc522::UP: // configured, field off: a fresh start
      break;
    }
    rf.phase = RFID_FIELD_OFF;
    rf.phase_us = now;
    return;
  case RFID_FIELD_OFF:
    if ((uint32_t)(now - rf.phase_us) < RFID_FIELD_OFF_US) return;
    rfid.field(true);
    rf.phase = RFID_FIELD_ON;
    rf.phase_us = micros();
    return;
  case RFID_FIELD_ON:
    if ((uint32_t)(now - rf.phase_us) < RFID_FIELD_GUARD_US) return;
    rf.phase = RFID_RUN;
    rf.honest = true;
    rf.recount = true;
    rf.empties = 0;
    tags.clear_overflow();
    if (rf.chip_fault) {
      rf.chip_fault = false;
      rfid_update_fault();
    }
    break;
  case RFID_RUN:
    if ((uint32_t)(now - rf.last_poll_us) < RFID_POLL_MIN_US) return;
    break;
  }
  // Is the chip still there, and still configured (a brown-out resets it)? Two register reads; every
  // RFID_HEALTH_US is enough (a dead chip also makes its frames fail, which proves nothing either way).
  if ((uint32_t)(now - rf.health_us) >= RFID_HEALTH_US) {
    rf.health_us = now;
    if (rfid.check() != Mfrc522::UP) {
      rf.phase = RFID_DOWN;
      rf.phase_us = now;
      return;
    }
  }

  uint32_t t_us = micros(); // the poll starts now: a tag it reads was there at this moment
  rf.last_poll_us = t_us;
  TagUid uid;
  uid.len = 0;
  // After a failed read, the other branch at a collision: an unreadable tag must not hide the others.
  switch (rfid.poll(&uid, (rf.failures & 1) != 0)) {
  case Mfrc522::EMPTY:
    if (rf.honest) {
      rf.last_empty_us = t_us;
      // Only an honest empty poll ends a run of failed reads (the one right after a failed read is empty
      // because that read left the tag READY), and only it clears their fault: the field is clean now.
      rf.failures = 0;
      if (rf.read_fault) {
        rf.read_fault = false;
        rfid_update_fault();
      }
      if (rf.recount && ++rf.empties >= RFID_INVENTORY_EMPTY_POLLS) rfid_inventory_done();
    }
    rf.honest = true;
    if (rf.recount) return; // no presence checks during the inventory: it decides about the suspects
    if (rf.resync) {
      rfid_field_reset(micros());
      return;
    }
    rfid_check_presence();
    return;
  case Mfrc522::TAG: {
    TagChange c;
    TagPresence::Seen seen = tags.seen(uid, t_us, rf.last_empty_us, &c);
    if (seen == TagPresence::ARRIVED) emit_tag(c);
    rf.honest = true;
    rf.failures = 0;
    rf.empties = 0;
    if (!rf.recount) rfid_update_fault(); // a NO_ROOM raises FAULT+ at once (during a recount: at its end)
    return;
  }
  case Mfrc522::FAILED:
    // Tags may be left READY/ACTIVE: the next REQA sends them back to IDLE without an answer, so an empty
    // answer to it proves nothing.
    rf.honest = false;
    rf.empties = 0;
    if (rf.failures < 255) rf.failures++;
    if (rf.failures >= RFID_MAX_FAILURES) rf.read_fault = true; // reads keep failing: the picture is incomplete
    rfid_update_fault();
    return;
  }
}

// -------------------------------------------------------------------------------------------- commands

void reply_info(uint16_t id) {
  proto_begin_ok(out, id);
  out.field("fw", FW_VERSION).field_u32("proto", PROTO_VERSION).field("kind", STATION_KIND);
  out.field("id", settings.station).field_u32("boot", settings.boot);
  send();
}

void handle_line(const char *line, uint8_t len, uint32_t rx_us) {
  Command cmd;
  uint8_t st = proto_parse_command(line, len, &cmd);
  if (st != STATUS_OK) {
    send_err(cmd.has_id, cmd.id, st);
    return;
  }
  switch (cmd.verb) {
  case CMD_PING:
    proto_begin_ok(out, cmd.id);
    out.field_u32("t", rx_us);
    send();
    return;
  case CMD_INFO:
    reply_info(cmd.id);
    return;
  case CMD_ID_SET: {
    Settings next = settings;
    strcpy(next.station, cmd.station);
    if (!settings_save(next)) {
      send_err(true, cmd.id, STATUS_EEPROM_FAILED);
      return;
    }
    settings = next;
    proto_begin_ok(out, cmd.id);
    out.field("id", settings.station);
    send();
    return;
  }
#if STATION_HAS_PAD
  case CMD_LAMP_ON:
    lamp.on();
    break;
  case CMD_LAMP_OFF:
    lamp.off();
    break;
  case CMD_LAMP_BLINK:
    lamp.blink((uint16_t)cmd.arg[0], (uint16_t)cmd.arg[1], (uint16_t)cmd.arg[2], millis());
    break;
  case CMD_STREAM_ON:
    streaming = true;
    break;
  case CMD_STREAM_OFF:
    streaming = false;
    break;
  case CMD_SCALE:
    proto_begin_ok(out, cmd.id);
    out.field_i32("tare", settings.tare).field_i32("per_kg", settings.per_kg);
    send();
    return;
  case CMD_TARE:
  case CMD_CALIBRATE:
    start_pending(cmd, SCALE_AVERAGE_SAMPLES);
    return; // answered when the samples are in
  case CMD_RAW:
    start_pending(cmd, 1);
    return;
#endif
  default:
    send_err(true, cmd.id, STATUS_NOT_SUPPORTED);
    return;
  }
  proto_begin_ok(out, cmd.id);
  send();
}

bool busy() {
#if STATION_HAS_PAD
  return pending.active;
#else
  return false;
#endif
}

void poll_serial() {
  while (!busy() && Serial.available() > 0) {
    int c = Serial.read();
    if (c < 0) return;
    LineReader::Result r = reader.feed((uint8_t)c);
    if (r == LineReader::LINE) {
      handle_line(reader.line(), reader.length(), micros());
#if STATION_HAS_PAD
      update_lamp(); // a lamp command takes effect now, not after the RFID step of this loop pass
#endif
    } else if (r == LineReader::TOO_LONG) {
      send_err(false, 0, STATUS_LINE_TOO_LONG);
    }
  }
}

} // namespace

void station_setup() {
  Serial.begin(115200);
  settings_load(&settings); // a blank or corrupt record gives the defaults
  settings.boot++;
  settings_save(settings); // a failing EEPROM still boots; `id set`/`tare` will report it
  // Power-on state. Static storage already is this on the board; the host tests restart the station
  // many times in one process.
  next_seq = 0;
  reader.reset(); // in place: `tags = TagPresence()` put a 192-byte temporary on the boot path's stack
  tags.reset();

#if STATION_HAS_PAD
  pinMode(PIN_LAMP, OUTPUT);
  digitalWrite(PIN_LAMP, LOW);
  pinMode(PIN_BUTTON, INPUT_PULLUP);
#if defined(__AVR__)
  button_in = portInputRegister(digitalPinToPort(PIN_BUTTON));
  button_mask = digitalPinToBitMask(PIN_BUTTON);
#endif
  button.begin(button_level());
  attachInterrupt(digitalPinToInterrupt(PIN_BUTTON), on_button_edge, CHANGE);
  scale.begin(PIN_HX711_DOUT, PIN_HX711_SCK);
  last_sample_ms = millis();
  pending.active = false;
  filter.reset();
  lamp.off();
  streaming = false;
  scale_fault = false;
#endif
  // The slap sensor (optional): the comparator pulls the line low on an impact; the pull-up keeps it high
  // (quiet) when none is fitted.
  slap.reset();
  pinMode(PIN_SLAP, INPUT_PULLUP);
  attachInterrupt(digitalPinToInterrupt(PIN_SLAP), on_slap_edge, FALLING);
  bool rfid_ok = rfid.begin();
  rf.phase = rfid_ok ? RFID_FIELD_OFF : RFID_DOWN; // begin() left the field off
  rf.phase_us = micros();
  rf.last_poll_us = rf.phase_us;
  rf.last_empty_us = 0; // "since boot": the first TAG+ windows reach back to power-on
  rf.round_us = rf.phase_us;
  rf.health_us = rf.phase_us;
  rf.next_check = 0;
  rf.recheck = -1;
  rf.honest = false;
  rf.resync = false;
  rf.recount = false;
  rf.empties = 0;
  rf.failures = 0;
  rf.read_fault = false;
  rf.chip_fault = !rfid_ok;
  rf.reported_fault = false;

  // A `\n` first: after a reset in the middle of a line the host still holds the cut line, and the banner
  // must arrive as a line of its own (hosts ignore the empty line this makes otherwise).
  Serial.write('\n');
  proto_begin_banner(out, FW_VERSION, PROTO_VERSION, STATION_KIND, settings.station, settings.boot);
  send();
  if (!rfid_ok) rfid_update_fault();
}

void station_loop() {
  poll_serial();
  poll_slap();
#if STATION_HAS_PAD
  poll_button();
  poll_scale();
#endif
  poll_rfid();
#if STATION_HAS_PAD
  update_lamp();
#endif
}
