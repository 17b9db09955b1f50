// The station firmware: setup/loop of a seat station (pad with RFID reader and load cell, ZAP button with
// lamp) or, built with -DSTATION_KIND_PILE, a pile station (RFID reader only). main.cpp calls these; the
// host tests call them too, against the Arduino fake in firmware/host/.
#ifndef ZT_STATION_H
#define ZT_STATION_H

#define FW_VERSION "0.1.0"

#if defined(STATION_KIND_PILE)
#define STATION_KIND "pile"
#define STATION_HAS_PAD 0 // no load cell, no button, no lamp
#else
#define STATION_KIND "seat"
#define STATION_HAS_PAD 1
#endif

// Timing (see hardware/protocol.md, "Timing").
#define RFID_POLL_MS 50UL          // a poll every 50 ms; TAG- follows ~100-150 ms after the tag left
#define SCALE_FAULT_MS 1000UL      // no HX711 conversion for 1 s (10 per second expected): FAULT+ scale
#define SCALE_AVERAGE_SAMPLES 8    // tare and calibrate average 8 readings (0.8 s at 10 samples/s)
#define SCALE_COMMAND_TIMEOUT_MS 2000UL // a pending tare/calibrate/raw gives up after 2 s without progress

void station_setup();
void station_loop();

#endif
