// The lamp of a big buzzer button, switched by an N-MOSFET whose gate is on D8 of a StandardFirmata board.
//
// Wiring:  hardware/diagrams/example-lamp.svg — D8 → 220 Ω → MOSFET gate, 10 kΩ gate → GND, drain → lamp −,
//          lamp + → +12 V (or 5V for a 5 V LED lamp), source → GND, the 12 V supply's − joined to GND.
//          Never a lamp straight on a pin: a pin gives 20 mA at 5 V, a lamp wants more, often at 12 V.
// Run:     npm i johnny-five            (already a dependency inside this repository)
//          node hardware/examples/lamp.mjs        or        PORT=/dev/ttyACM0 node hardware/examples/lamp.mjs
//
// It lights the lamp for a second, blinks it for three seconds (the way the buzzer system shows "armed"),
// then switches it off and exits. johnny-five's Led works for any on/off load behind a transistor.
import five from 'johnny-five';

const board = new five.Board({ port: process.env.PORT, repl: false });

board.on('ready', () => {
  const lamp = new five.Led(8);

  console.log('lamp on');
  lamp.on();
  board.wait(1000, () => {
    console.log('lamp blinking (200 ms)');
    lamp.blink(200);
    board.wait(3000, () => {
      lamp.stop().off();
      console.log('lamp off; done');
      process.exit(0);
    });
  });
});
