// Arduino entry points. The core's main() calls setup() once and loop() forever.
#include <Arduino.h>

#include "station.h"

void setup() { station_setup(); }

void loop() { station_loop(); }
