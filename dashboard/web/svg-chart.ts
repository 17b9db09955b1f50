/**
 * A small step chart as inline SVG: one or more series over time, with dashed threshold lines. Its size is
 * fixed by its viewBox and the CSS's aspect ratio, so drawing or redrawing it never moves the page (no layout
 * shift), and it costs no plotting library. It is an image with a name; the page gives the figures as a table too.
 */
import { s } from './dom.ts';

export interface ChartSeries {
  readonly label: string;
  /** A CSS colour class suffix (`chart-line-<tone>`). */
  readonly tone: string;
  /** [time ms, value]; null is a gap (unknown then). */
  readonly points: readonly (readonly [number, number | null])[];
}

export interface ChartOptions {
  readonly name: string;
  readonly series: readonly ChartSeries[];
  /** Horizontal lines with their label (e.g. 5 ms: "ties by the clock"). */
  readonly thresholds?: readonly { readonly value: number; readonly label: string }[];
  /** The value axis's unit, shown by its top figure. */
  readonly unit: string;
  /** The lowest top of the value axis. */
  readonly minTop?: number;
  /** The time window's end (default: the last point). */
  readonly until?: number;
}

const W = 600;
const H = 180;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

export function stepChart(o: ChartOptions): SVGSVGElement {
  const times = o.series.flatMap((x) => x.points.map((p) => p[0]));
  const values = o.series.flatMap((x) => x.points.map((p) => p[1])).filter((v): v is number => v !== null);
  const t0 = times.length === 0 ? 0 : Math.min(...times);
  const t1 = Math.max(o.until ?? 0, ...times, t0 + 1000);
  const top = Math.max(o.minTop ?? 1, ...values, ...(o.thresholds ?? []).map((t) => t.value)) * 1.1;
  const x = (t: number): number => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'step-chart', role: 'img', 'aria-label': o.name });
  svg.append(s('line', { x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0), class: 'chart-axis' }),
    s('text', { x: PAD.left - 4, y: y(0) + 4, class: 'chart-tick', 'text-anchor': 'end' }, '0'),
    s('text', { x: PAD.left - 4, y: PAD.top + 10, class: 'chart-tick', 'text-anchor': 'end' }, `${formatTop(top)} ${o.unit}`),
    s('text', { x: PAD.left, y: H - 6, class: 'chart-tick' }, timeOfDay(t0)),
    s('text', { x: W - PAD.right, y: H - 6, class: 'chart-tick', 'text-anchor': 'end' }, timeOfDay(t1)));
  for (const th of o.thresholds ?? []) {
    svg.append(s('line', { x1: PAD.left, x2: W - PAD.right, y1: y(th.value), y2: y(th.value), class: 'chart-threshold' }),
      s('text', { x: W - PAD.right - 2, y: y(th.value) - 3, class: 'chart-tick', 'text-anchor': 'end' }, th.label));
  }
  for (const [index, series] of o.series.entries()) {
    // A step line: each value holds until the next sample; a null breaks the line.
    let d = '';
    let open = false;
    series.points.forEach(([t, v], i) => {
      const next = series.points[i + 1]?.[0] ?? t1;
      if (v === null) {
        open = false;
        return;
      }
      d += `${open ? 'L' : 'M'}${x(t).toFixed(1)} ${y(v).toFixed(1)} H${x(next).toFixed(1)} `;
      open = true;
    });
    if (d !== '') svg.append(s('path', { d, class: `chart-line chart-line-${series.tone}` }, s('title', {}, series.label)));
    // Named at its end, so no line is told apart by its colour only.
    const last = [...series.points].reverse().find((p) => p[1] !== null);
    if (o.series.length > 1 && last?.[1] != null) {
      // Lines that end at the same height (two counters at 1) get their names one above the other.
      svg.append(s('text', { x: W - PAD.right - 2, y: Math.max(PAD.top + 10, y(last[1]) - 3 - 13 * index), class: 'chart-tick', 'text-anchor': 'end' }, series.label));
    }
  }
  return svg;
}

function formatTop(v: number): string {
  return v >= 10 ? v.toFixed(0) : v.toFixed(1);
}

function timeOfDay(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
