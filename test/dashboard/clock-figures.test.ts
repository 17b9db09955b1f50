/** The health page's clock figures: units that read and the good / ok / bad thresholds (web/clock-figures.ts). */
import { describe, expect, it } from 'vitest';
import { duration, judgeDrift, judgeOffset, judgeUncertainty } from '../../dashboard/web/clock-figures.ts';

describe('clock figures', () => {
  it('shows the offset as a duration and never judges it (it is the station\'s boot time)', () => {
    expect(judgeOffset(468_186_600)).toMatchObject({ text: '7 min 48 s', judgement: null });
    expect(judgeOffset(-12_680_408_610).text).toBe('−3 h 31 min');
    expect(duration(3_200_000)).toBe('3.2 s');
    expect(duration(12_300)).toBe('12.3 ms');
    expect(duration(80)).toBe('80 µs');
  });

  it('judges drift against a resonator\'s tolerance', () => {
    expect(judgeDrift(-76)).toMatchObject({ text: '−76 ppm (274 ms/h)', judgement: 'good' });
    expect(judgeDrift(1000).judgement).toBe('good');
    expect(judgeDrift(1001).judgement).toBe('ok');
    expect(judgeDrift(-4200)).toMatchObject({ text: '−4200 ppm (15.1 s/h)', judgement: 'ok' });
    expect(judgeDrift(5001).judgement).toBe('bad');
  });

  it('judges the uncertainty by whether the clock could decide a tie', () => {
    expect(judgeUncertainty(140)).toMatchObject({ text: '±0.14 ms', judgement: 'good' });
    expect(judgeUncertainty(1000).judgement).toBe('good');
    expect(judgeUncertainty(4200)).toMatchObject({ text: '±4.2 ms', judgement: 'ok' });
    expect(judgeUncertainty(5001).judgement).toBe('bad');
    expect(judgeUncertainty(null)).toMatchObject({ text: 'not synced', judgement: 'bad' });
  });
});
