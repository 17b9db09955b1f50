// A passive piezo disc on A0 (digital pin 14 on an Uno/Nano) of a StandardFirmata board: the winner's chime.
//
// Wiring:  hardware/diagrams/example-piezo.svg — A0 → 100 Ω → piezo +, piezo − → GND.
// Run:     npm i johnny-five            (already a dependency inside this repository)
//          node hardware/examples/piezo.mjs       or        PORT=/dev/ttyACM0 node hardware/examples/piezo.mjs
//
// johnny-five's default Piezo toggles the pin from this computer, one Firmata message per half period, so
// keep to short, low notes (≲ 1 kHz at 57600 baud) and play them after the first press has been decided.
// For a loud event signal use an active 12 V buzzer switched like a lamp (see lamp.mjs).
//
// A0–A5 (14–19): johnny-five renumbers them as analog channels for a Firmata board, so `new five.Piezo(14)`
// would toggle D0 (the serial RX; StandardFirmata ignores it: silence). On A0, point the Piezo back at pin 14
// and make 14 an output. (Not on A1–A5 this way: `new five.Piezo(16)` first makes D2 an output.)
import five from 'johnny-five';

const board = new five.Board({ port: process.env.PORT, repl: false });

board.on('ready', () => {
  const A0 = 14;
  const piezo = new five.Piezo(A0);
  piezo.pin = A0; // johnny-five set it to 0
  board.pinMode(A0, board.MODES.OUTPUT);

  console.log('playing the chime');
  piezo.play({ song: [['C4', 1], ['E4', 1], ['G4', 2], [null, 1]], tempo: 240 }, () => {
    piezo.off();
    console.log('done');
    process.exit(0);
  });
});
