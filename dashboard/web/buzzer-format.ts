/**
 * How buzzer figures read on screen (docs/mqtt.md, "What a big screen needs"): durations below 1 ms in µs,
 * else in ms with one decimal; contestants' and teams' colours (any CSS colour from the configuration, with a
 * fallback palette) always next to the name, never instead of it. Pure but for `CSS.supports`.
 */
import type { BuzzerView } from './types.ts';

/** 840 → "840 µs"; 41520 → "41.5 ms"; 12_000_000 → "12000.0 ms". */
export function duration(us: number): string {
  const abs = Math.abs(us);
  return abs < 1000 ? `${Math.round(us)} µs` : `${(us / 1000).toFixed(1)} ms`;
}

/** Delay behind the winner: "+41.5 ms", "+840 µs"; the winner's own row: "—". */
export function delay(us: number): string {
  return us === 0 ? '—' : `+${duration(us)}`;
}

/** Seconds with one decimal for countdowns and "armed since": 3.24 s → "3.2 s"; never negative. */
export function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

const PALETTE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45', '#fabed4', '#dcbeff'];

/** The configuration's colour names (docs/configuration.md) as tones that read well on the dark screen. */
const NAMED: Readonly<Record<string, string>> = {
  red: '#e02b3c', green: '#1fa34a', blue: '#2f6fde', yellow: '#f4c430', orange: '#f28c28', purple: '#9b4dca',
  pink: '#ff6fb5', cyan: '#22c3d6', white: '#f4f4f4', black: '#111111',
};

/** A configured colour (a name or #rrggbb), else one of a fixed palette by position. */
export function cssColour(colour: string | null | undefined, index: number): string {
  const named = colour === null || colour === undefined ? undefined : NAMED[colour.toLowerCase()];
  if (named !== undefined) return named;
  if (colour !== null && colour !== undefined && colour !== '' && typeof CSS !== 'undefined' && CSS.supports('color', colour)) return colour;
  return PALETTE[index % PALETTE.length] ?? '#888';
}

/** Black or white text on a background colour, whichever reads better (for the big winner block). */
export function textOn(colour: string): string {
  const probe = document.createElement('span');
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g)?.map(Number) ?? [0, 0, 0];
  probe.remove();
  const [r = 0, g = 0, b = 0] = rgb;
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000' : '#fff';
}

export interface Entrant {
  /** Team id, or the contestant id of a contestant without a team: the key of `scores`. */
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  /** Member names (a team), or empty. */
  readonly members: readonly string[];
}

/** The contestant's name and display colour. */
export function contestantInfo(view: BuzzerView, id: string): { name: string; colour: string; team: string | null } {
  const i = view.contestants.findIndex((c) => c.id === id);
  const c = view.contestants[i];
  return { name: c?.name ?? id, colour: cssColour(c?.colour, Math.max(0, i)), team: c?.team ?? null };
}

/** Who scores: the teams, then contestants without a team (the keys of `scores`), in configuration order. */
export function entrants(view: BuzzerView): Entrant[] {
  const teams = view.teams.map((t) => {
    const first = t.members[0];
    return {
      id: t.id, name: t.name, colour: first === undefined ? '#888' : contestantInfo(view, first).colour,
      members: t.members.map((m) => contestantInfo(view, m).name),
    };
  });
  const solo = view.contestants.filter((c) => c.team === null)
    .map((c) => ({ id: c.id, name: c.name, colour: contestantInfo(view, c.id).colour, members: [] }));
  return [...teams, ...solo];
}

export const LOCK_REASON: Readonly<Record<string, string>> = {
  'false-start': 'false start',
  wrong: 'wrong answer: out for this question',
  'already-buzzed': 'already buzzed this question',
};
