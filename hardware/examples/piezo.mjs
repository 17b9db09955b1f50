// A passive piezo disc on A0 (digital pin 14 on an Uno/Nano) of a StandardFirmata board: the winner's chime.
//
// Wiring:  hardware/diagrams/example-piezo.svg — A0 → 100 Ω → piezo +, piezo − → GND.
// Run:     npm i johnny-five            (already a dependency inside this repository)
//          node hardware/examples/piezo.mjs       or        PORT=/dev/ttyACM0 node hardware/examples/piezo.mjs
//
// johnny-five's default Piezo toggles the pin from this computer, one Firmata message per half period, so
// keep to short, low notes (≲ 1 kHz at 57600 baud) and play them after the first press has been decided.
// For a loud event signal use an active 12 V buzzer switched like a lamp (see lamp.mjs).
import five from 'johnny-five';

const board = new five.Board({ port: process.env.PORT, repl: false });

board.on('ready', () => {
  const piezo = new five.Piezo(14);

  console.log('playing the chime');
  piezo.play({ song: [['C4', 1], ['E4', 1], ['G4', 2], [null, 1]], tempo: 240 }, () => {
    piezo.off();
    console.log('done');
    process.exit(0);
  });
});
