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
#include "tag_presence.h"
#include "weight_filter.h"

#if defined(__AVR__)
// The MFRC522 must sit on the hardware SPI pins; pins.h documents them, the core defines them.
static_assert(PIN_RFID_MOSI == MOSI && PIN_RFID_MISO == MISO && PIN_RFID_SCK == SCK, "pins.h: SPI pins");
static_assert(PIN_RFID_SS == SS || PIN_RFID_SS == 10, "pins.h: RFID_SS");
static_assert(digitalPinToInterrupt(PIN_BUTTON) != NOT_AN_INTERRUPT, "pins.h: BUTTON needs an external interrupt");
#endif

namespace {

LineReader reader;
LineWriter out;
Settings settings;
uint32_t next_seq = 0;

Mfrc522 rfid(PIN_RFID_SS, PIN_RFID_RST);
TagPresence tags;

// The RFID inventory schedule (mfrc522.h): field off (every tag loses power) -> field on (tags reach IDLE)
// -> a cycle of inventory steps, one per loop pass, until a REQA is not answered -> field off again.
enum RfidPhase : uint8_t { RFID_FIELD_OFF, RFID_FIELD_ON, RFID_CYCLE };
struct Rfid {
  RfidPhase phase;
  uint32_t phase_us;   // when the phase began
  uint32_t cycle_us;   // when the last cycle began
  uint8_t steps;       // steps in this cycle
  uint8_t failures;    // failed steps in a row
  bool retry;          // the last step failed: tags may sit in READY, and REQA sends those to IDLE silently
  uint8_t incomplete;  // incomplete cycles in a row
  bool chip_fault;     // the MFRC522 does not answer on SPI
  bool reported_fault; // FAULT+ rfid sent and not yet cleared
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
  out.ch(' ').hex(c.uid.bytes, c.uid.len);
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
    ButtonEvent e;
    noInterrupts(); // the debouncer's state is shared with the ISR
    bool changed = button.poll(micros(), button_level(), &e);
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

// ------------------------------------------------------------------------------------------------ rfid

// FAULT+ rfid while the reader cannot give a complete, trustworthy picture of its field: the chip does
// not answer, more tags lie on it than it can track, or its cycles keep ending early (reads keep failing).
void rfid_update_fault() {
  bool fault = rf.chip_fault || tags.overflow() || rf.incomplete >= RFID_INCOMPLETE_FAULT;
  if (fault != rf.reported_fault) emit_fault(fault, "rfid");
  rf.reported_fault = fault;
}

// complete: the cycle ended with a REQA nobody answered (every tag in the field was read), at t_us.
void rfid_end_cycle(bool complete, uint32_t t_us) {
  rfid.field(false); // every tag loses power and comes back in IDLE for the next cycle
  rf.phase = RFID_FIELD_OFF;
  rf.phase_us = micros();
  tags.end_cycle(complete, t_us); // incomplete: presence unknown, nothing leaves
  TagChange c;
  while (tags.take_departure(&c)) emit_tag(c);
  rf.incomplete = complete ? 0 : (uint8_t)(rf.incomplete < 255 ? rf.incomplete + 1 : 255);
  rfid_update_fault();
}

void poll_rfid() {
  uint32_t now = micros();
  switch (rf.phase) {
  case RFID_FIELD_OFF:
    if ((uint32_t)(now - rf.phase_us) < RFID_FIELD_OFF_US) return;
    if ((uint32_t)(now - rf.cycle_us) < RFID_CYCLE_US - RFID_FIELD_GUARD_US) return;
    switch (rfid.check()) {
    case Mfrc522::DOWN: // the chip is gone: try again one period later; presence unknown meanwhile
      rf.chip_fault = true;
      rf.cycle_us = now;
      rf.phase_us = now;
      rfid_update_fault();
      return;
    case Mfrc522::STARTING: // coming back up: ask again in the next loop pass
      return;
    case Mfrc522::UP:
      break;
    }
    if (rf.chip_fault) { // back (check() configured it again)
      rf.chip_fault = false;
      rfid_update_fault();
    }
    rfid.field(true);
    rf.phase = RFID_FIELD_ON;
    rf.phase_us = micros();
    return;
  case RFID_FIELD_ON:
    if ((uint32_t)(now - rf.phase_us) < RFID_FIELD_GUARD_US || (uint32_t)(now - rf.cycle_us) < RFID_CYCLE_US) return;
    rf.phase = RFID_CYCLE;
    rf.cycle_us = now;
    rf.steps = 0;
    rf.failures = 0;
    rf.retry = false;
    tags.begin_cycle();
    break; // the first step right away
  case RFID_CYCLE:
    break;
  }

  uint32_t t_us = micros(); // the step starts now: a tag it reads was there at this moment
  TagUid uid;
  uid.len = 0;
  Mfrc522::Step r = rfid.inventory_step(&uid);
  rf.steps++;
  switch (r) {
  case Mfrc522::FAULT:
    rf.chip_fault = true;
    rfid_end_cycle(false, t_us);
    return;
  case Mfrc522::EMPTY:
    if (!rf.retry) {
      rfid_end_cycle(true, t_us); // the field is empty of IDLE tags: every tag was read this cycle
      return;
    }
    rf.retry = false; // after a failed step this REQA only sent the READY tags back to IDLE: ask again
    break;
  case Mfrc522::TAG: {
    TagChange c;
    TagPresence::Seen seen = tags.seen(uid, t_us, &c);
    if (seen == TagPresence::ARRIVED) emit_tag(c);
    // A tag read twice in one cycle did not take its HLTA (the step sent another one).
    rf.failures = seen == TagPresence::DUPLICATE ? (uint8_t)(rf.failures + 1) : 0;
    rf.retry = false;
    break;
  }
  case Mfrc522::FAILED:
    rf.failures++;
    rf.retry = true;
    break;
  }
  if (rf.failures >= RFID_MAX_FAILURES || rf.steps >= RFID_MAX_STEPS) rfid_end_cycle(false, micros());
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
    if (r == LineReader::LINE) handle_line(reader.line(), reader.length(), micros());
    else if (r == LineReader::TOO_LONG) send_err(false, 0, STATUS_LINE_TOO_LONG);
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
  bool rfid_ok = rfid.begin();

  // A `\n` first: after a reset in the middle of a line the host still holds the cut line, and the banner
  // must arrive as a line of its own (hosts ignore the empty line this makes otherwise).
  Serial.write('\n');
  proto_begin_banner(out, FW_VERSION, PROTO_VERSION, STATION_KIND, settings.station, settings.boot);
  send();
  rf.phase = RFID_FIELD_OFF; // begin() left the field off
  rf.phase_us = micros();
  rf.cycle_us = rf.phase_us; // the first cycle one period after the banner
  rf.incomplete = 0;
  rf.chip_fault = !rfid_ok;
  rf.reported_fault = false;
  if (!rfid_ok) rfid_update_fault();
}

void station_loop() {
  poll_serial();
#if STATION_HAS_PAD
  poll_button();
  poll_scale();
#endif
  poll_rfid();
#if STATION_HAS_PAD
  update_lamp();
#endif
}
