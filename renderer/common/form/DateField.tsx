/// <reference types="vite/client" />
// A date field for every form and filter: Blueprint's DateInput with a Chinese calendar, typed and
// shown as yyyy-MM-dd. A native <input type="date"> shows the browser's own locale (mm/dd/yyyy in
// an English Chromium) inside a Chinese screen, so none is used. The value is the day as
// 'yyyy-MM-dd', or '' when empty, which is what the calls take.
import type { Intent } from '@blueprintjs/core';
import { DateInput } from '@blueprintjs/datetime';
import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import { zhCN } from 'date-fns/locale';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function formatDay(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** Only a whole yyyy-MM-dd that names a real day; anything else is not a date (DateInput shows it as invalid). */
function parseDay(text: string): Date | false {
  const m = DAY.exec(text.trim());
  if (!m) return false;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return formatDay(date) === text.trim() ? date : false;
}

/** Midnight of a 'yyyy-MM-dd' day, local time. */
const dayDate = (day: string | undefined, fallback: Date): Date => (day && parseDay(day)) || fallback;

export interface DateFieldProps {
  value: string;
  onChange: (day: string) => void;
  /** The field's label for assistive technology and tests when no <label for> names it. */
  ariaLabel?: string;
  id?: string;
  intent?: Intent;
  disabled?: boolean;
  /** Earliest and latest day that can be chosen, 'yyyy-MM-dd'. */
  min?: string;
  max?: string;
}

// Published dates of old advisories go back decades; expiry dates lie ahead.
const EARLIEST = new Date(1970, 0, 1);
const LATEST = new Date(2099, 11, 31);

export function DateField({ value, onChange, ariaLabel, id, intent, disabled, min, max }: DateFieldProps) {
  const minDate = dayDate(min, EARLIEST);
  const maxDate = dayDate(max, LATEST);
  // With no value the calendar opens on this month; when today is outside the range Blueprint
  // would open half-way between its ends (decades ahead for an expiry from tomorrow), so the
  // nearest end's month instead.
  const today = new Date();
  const initialMonth = today < minDate ? minDate : today > maxDate ? maxDate : today;
  return (
    <DateInput
      className="cairn-date-field"
      value={value || null}
      // DateInput answers an ISO string with a time and zone; the calls take the day.
      onChange={(iso) => onChange(iso ? iso.slice(0, 10) : '')}
      formatDate={formatDay}
      parseDate={parseDay}
      placeholder="年-月-日"
      invalidDateMessage="日期无效"
      outOfRangeMessage="超出可选范围"
      minDate={minDate}
      maxDate={maxDate}
      initialMonth={initialMonth}
      locale={zhCN}
      showActionsBar
      todayButtonText="今天"
      clearButtonText="清除"
      highlightCurrentDay
      disabled={disabled}
      inputProps={{ id, intent, 'aria-label': ariaLabel }}
      popoverProps={{ placement: 'bottom-start' }}
    />
  );
}
