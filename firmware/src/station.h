// The station firmware: setup/loop of a seat station (pad with RFID reader and load cell, ZAP button with
// lamp) or, built with -DSTATION_KIND_PILE, a pile station (RFID reader only). main.cpp calls these; the
// host tests call them too, against the Arduino fake in firmware/host/.
#ifndef ZT_STATION_H
#define ZT_STATION_H

#define FW_VERSION "0.4.0"

#if defined(STATION_KIND_PILE)
#define STATION_KIND "pile"
#define STATION_HAS_PAD 0 // no load cell, no button, no lamp
#else
#define STATION_KIND "seat"
#define STATION_HAS_PAD 1
#endif

// Timing (see hardware/protocol.md, "RFID timing").
#define RFID_POLL_MIN_US 1000UL      // a poll at most every 1 ms (with no tag to check, a step is only a poll)
#define RFID_CHECK_PERIOD_US 10000UL // a round of presence checks at most every 10 ms (with few tags)
#define RFID_FIELD_OFF_US 6000UL     // a field reset: off >= 5.1 ms (ISO 14443-3), every tag loses power
#define RFID_FIELD_GUARD_US 6000UL   // field on before the first poll (tags must answer within 5 ms)
#define RFID_MAX_FAILURES 12         // failed reads in a row that raise FAULT+ rfid (reads keep failing)
#define RFID_INVENTORY_EMPTY_POLLS 3 // an inventory ends after 3 honest empty polls in a row (a lost ATQA: 1 %^3)
#define RFID_HEALTH_US 20000UL       // the chip's health (VersionReg, configuration) every 20 ms
#define SCALE_FAULT_MS 1000UL      // no HX711 conversion for 1 s (10 per second expected): FAULT+ scale
#define SCALE_AVERAGE_SAMPLES 8    // tare and calibrate average 8 readings (0.8 s at 10 samples/s)
#define SCALE_COMMAND_TIMEOUT_MS 2000UL // a pending tare/calibrate/raw gives up after 2 s without progress

void station_setup();
void station_loop();

#endif
