// The station firmware: setup/loop of a seat station (pad with RFID reader and load cell, ZAP button with
// lamp) or, built with -DSTATION_KIND_PILE, a pile station (RFID reader only). main.cpp calls these; the
// host tests call them too, against the Arduino fake in firmware/host/.
#ifndef ZT_STATION_H
#define ZT_STATION_H

#define FW_VERSION "0.3.0"

#if defined(STATION_KIND_PILE)
#define STATION_KIND "pile"
#define STATION_HAS_PAD 0 // no load cell, no button, no lamp
#else
#define STATION_KIND "seat"
#define STATION_HAS_PAD 1
#endif

// Timing (see hardware/protocol.md, "Timing").
#define RFID_CYCLE_US 50000UL     // an inventory cycle every 50 ms (longer with many tags: see protocol.md)
#define RFID_FIELD_OFF_US 6000UL   // field off between cycles: ISO 14443-3 field reset (>= 5.1 ms)
#define RFID_FIELD_GUARD_US 6000UL // field on before the first REQA (tags must answer within 5 ms)
#define RFID_MAX_FAILURES 3        // failed steps in a row that end a cycle early (incomplete)
#define RFID_MAX_STEPS (TAG_MAX_PRESENT + 16) // steps that end a cycle early (incomplete)
#define RFID_INCOMPLETE_FAULT 4    // incomplete cycles in a row that raise FAULT+ rfid
#define SCALE_FAULT_MS 1000UL      // no HX711 conversion for 1 s (10 per second expected): FAULT+ scale
#define SCALE_AVERAGE_SAMPLES 8    // tare and calibrate average 8 readings (0.8 s at 10 samples/s)
#define SCALE_COMMAND_TIMEOUT_MS 2000UL // a pending tare/calibrate/raw gives up after 2 s without progress

void station_setup();
void station_loop();

#endif
