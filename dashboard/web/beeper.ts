/**
 * The winner sound: a short WebAudio beep. Browsers allow sound only after the user interacted with the page,
 * so it stays muted until the first click or key press anywhere (and the sound button says so). One beeper
 * for the whole tab, so the state survives page changes.
 */
export class Beeper {
  private context: AudioContext | undefined;
  private listeners = new Set<() => void>();
  /** How many beeps were played (shown as a data attribute, so a test can count them). */
  played = 0;
  /** Winner/tie events seen while muted. */
  missed = 0;

  constructor() {
    const unlock = (): void => {
      this.enable();
    };
    document.addEventListener('pointerdown', unlock, { once: true, capture: true });
    document.addEventListener('keydown', unlock, { once: true, capture: true });
  }

  get enabled(): boolean {
    return this.context !== undefined;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  enable(): void {
    if (this.context !== undefined) return;
    try {
      this.context = new AudioContext();
      void this.context.resume();
    } catch {
      this.context = undefined;
    }
    for (const l of this.listeners) l();
  }

  /** A two-tone beep (winner), or three short ones (tie). Silent (counted as missed) until enabled. */
  beep(kind: 'winner' | 'tie'): void {
    const ctx = this.context;
    if (ctx === undefined) {
      this.missed++;
      for (const l of this.listeners) l();
      return;
    }
    this.played++;
    const tones = kind === 'winner' ? [[880, 0, 0.18], [1320, 0.2, 0.35]] : [[660, 0, 0.12], [660, 0.18, 0.12], [660, 0.36, 0.12]];
    const start = ctx.currentTime + 0.01;
    for (const [hz = 880, at = 0, length = 0.2] of tones) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'square';
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.25, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + at);
      osc.stop(start + at + length + 0.02);
    }
    for (const l of this.listeners) l();
  }
}

let shared: Beeper | undefined;

export function beeper(): Beeper {
  shared ??= new Beeper();
  return shared;
}
