// Scheduled re-analysis times for cron types 1–6 (local time, as the user set them).
import { describe, expect, it } from 'vitest';
import { nextRunAt } from '../../../../server/jobs/timing.ts';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('nextRunAt', () => {
  const from = local(2026, 11, 22, 10, 0); // a Sunday

  it('is null when timing is off', () => {
    expect(nextRunAt({ enableTiming: false, cronType: 3 }, from)).toBeNull();
  });

  it('1 monthly on a day (clamped to short months)', () => {
    expect(nextRunAt({ enableTiming: true, cronType: 1, month: 5, time: '03:30' }, from)).toEqual(local(2026, 12, 5, 3, 30));
    expect(nextRunAt({ enableTiming: true, cronType: 1, month: 31, time: '01:00' }, local(2027, 2, 1))).toEqual(local(2027, 2, 28, 1, 0));
  });

  it('2 weekly on a weekday (7 is Sunday)', () => {
    expect(nextRunAt({ enableTiming: true, cronType: 2, week: 1, time: '02:00' }, from)).toEqual(local(2026, 11, 23, 2, 0));
    expect(nextRunAt({ enableTiming: true, cronType: 2, week: 7, time: '23:00' }, from)).toEqual(local(2026, 11, 22, 23, 0));
  });

  it('3 daily: later today, else tomorrow', () => {
    expect(nextRunAt({ enableTiming: true, cronType: 3, time: '12:00' }, from)).toEqual(local(2026, 11, 22, 12, 0));
    expect(nextRunAt({ enableTiming: true, cronType: 3, time: '09:00' }, from)).toEqual(local(2026, 11, 23, 9, 0));
  });

  it('4 every N months, by day or by nth weekday', () => {
    const anchor = local(2026, 11, 1);
    expect(nextRunAt({ enableTiming: true, cronType: 4, interval: 2, days: [15], time: '04:00' }, from, anchor)).toEqual(local(2027, 1, 15, 4, 0));
    // second Tuesday of every month
    expect(nextRunAt({ enableTiming: true, cronType: 4, interval: 1, weekFlag: 2, weekDays: [2], time: '04:00' }, from, anchor)).toEqual(local(2026, 12, 8, 4, 0));
    // last Friday
    expect(nextRunAt({ enableTiming: true, cronType: 4, interval: 1, weekFlag: 5, weekDays: [5], time: '04:00' }, from, anchor)).toEqual(local(2026, 11, 27, 4, 0));
  });

  it('5 every N weeks on weekdays', () => {
    const anchor = local(2026, 11, 16); // Monday of the anchor week
    expect(nextRunAt({ enableTiming: true, cronType: 5, interval: 2, weekDays: [3], time: '05:00' }, from, anchor)).toEqual(local(2026, 12, 2, 5, 0));
    expect(nextRunAt({ enableTiming: true, cronType: 5, interval: 1, weekDays: [], time: '05:00' }, from, anchor)).toBeNull();
  });

  it('6 every N days from the anchor', () => {
    expect(nextRunAt({ enableTiming: true, cronType: 6, interval: 3, time: '06:00' }, from, local(2026, 11, 21))).toEqual(local(2026, 11, 24, 6, 0));
  });
});
