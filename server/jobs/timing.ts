// Scheduled re-analysis (spec doc 1 §3 "Timing"): when a project's next run is due, by cron type
// 1 monthly by day, 2 weekly, 3 daily, 4 every N months (by day or nth weekday), 5 every N weeks on
// weekdays, 6 every N days. Times are the platform's local time, as the user set them.
import type { Timing } from '../../contract/api/task.ts';

const DAY = 86_400_000;

/** weekDays are 1..7 with 7 Sunday; Date.getDay() is 0..6 with 0 Sunday. */
const isoWeekday = (d: Date) => (d.getDay() === 0 ? 7 : d.getDay());

function at(day: Date, time: string | undefined): Date {
  const [h, m] = (time ?? '02:00').split(':').map(Number);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), h ?? 2, m ?? 0, 0, 0);
}

const monthsBetween = (a: Date, b: Date) => (b.getFullYear() - a.getFullYear()) * 12 + (b.getMonth() - a.getMonth());
const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/** nth (1..4, 5 = last) given weekday of the month of `day`. */
function isNthWeekday(day: Date, nth: number, weekday: number): boolean {
  if (isoWeekday(day) !== weekday) return false;
  if (nth === 5) return new Date(day.getTime() + 7 * DAY).getMonth() !== day.getMonth();
  return Math.ceil(day.getDate() / 7) === nth;
}

/**
 * The first time strictly after `after` the timing fires; `anchor` (when timing was set) fixes
 * the phase of every-N schedules. Null when the timing can never fire (e.g. no weekdays chosen).
 */
export function nextRunAt(timing: Timing, after: Date, anchor: Date = after): Date | null {
  if (!timing.enableTiming) return null;
  const type = timing.cronType ?? 2;
  const interval = Math.max(1, timing.interval ?? 1);
  const anchorDay = startOfDay(anchor);
  const fires = (day: Date): boolean => {
    switch (type) {
      case 1: return day.getDate() === Math.min(timing.month ?? 1, daysInMonth(day));
      case 2: return isoWeekday(day) === (timing.week ?? 1);
      case 3: return true;
      case 4: {
        if (monthsBetween(anchorDay, day) % interval !== 0) return false;
        if (timing.weekFlag && timing.weekFlag > 0) return isNthWeekday(day, timing.weekFlag, timing.weekDays?.[0] ?? 1);
        const days = timing.days?.length ? timing.days : [1];
        return days.some((d) => day.getDate() === Math.min(d, daysInMonth(day)));
      }
      case 5: {
        const weeks = Math.floor((startOfWeek(day).getTime() - startOfWeek(anchorDay).getTime()) / (7 * DAY) + 0.5);
        return weeks % interval === 0 && (timing.weekDays ?? []).includes(isoWeekday(day));
      }
      case 6: return Math.round((day.getTime() - anchorDay.getTime()) / DAY) % interval === 0;
      default: return false;
    }
  };
  // Every schedule fires within about a year if it fires at all.
  for (let i = 0, day = startOfDay(after); i < 400; i++, day = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1)) {
    if (!fires(day)) continue;
    const when = at(day, timing.time);
    if (when.getTime() > after.getTime()) return when;
  }
  return null;
}

function daysInMonth(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
}

function startOfWeek(d: Date): Date {
  const day = startOfDay(d);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - (isoWeekday(day) - 1));
}
