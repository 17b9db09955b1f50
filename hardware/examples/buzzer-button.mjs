// One big buzzer button on D2 of a board running StandardFirmata, read with johnny-five.
//
// Wiring:  hardware/diagrams/example-buzzer-button.svg — the button's NO contact to D2, COM to GND.
//          No resistor: `isPullup: true` turns on the board's internal pull-up, so D2 reads LOW while pressed.
// Run:     npm i johnny-five            (already a dependency inside this repository)
//          node hardware/examples/buzzer-button.mjs            (johnny-five finds the board itself)
//          PORT=/dev/ttyACM0 node hardware/examples/buzzer-button.mjs
// On a Raspberry Pi's own GPIO instead: `new five.Board({ io: new RaspiIO() })` (npm i raspi-io) and a pin
// name such as 'GPIO5' — see hardware/buzzer-hub.md.
//
// The times printed are taken on this computer, when johnny-five reports the press: Firmata sends a pin
// change on its next loop, the USB adapter adds its own latency, and johnny-five's Button emits 7 ms after
// the last edge (its debounce). Fine for a quiz night; zaptable's seat stations stamp the first edge on the
// board in µs, which is what settles close calls.
import { performance } from 'node:perf_hooks';
import five from 'johnny-five';

const board = new five.Board({ port: process.env.PORT, repl: false });

board.on('ready', () => {
  const button = new five.Button({ pin: 2, isPullup: true });
  let pressedAt = 0;

  button.on('press', () => {
    pressedAt = performance.now();
    console.log(`press    at ${pressedAt.toFixed(1)} ms`);
  });
  button.on('hold', () => {
    console.log('held for 500 ms');
  });
  button.on('release', () => {
    const now = performance.now();
    console.log(`release  at ${now.toFixed(1)} ms (down for ${(now - pressedAt).toFixed(0)} ms)`);
  });
  console.log('ready: press the button on D2 (Ctrl-C to quit)');
});
