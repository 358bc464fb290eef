// The timing inputs of a project (spec doc 1 §3 "Timing"): the switch, the cron type and the
// fields that type reads. Shared by the project form and the batch timing dialog.
import { Checkbox, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch } from '@blueprintjs/core';
import { CRON_TYPE_LABEL, WEEK_DAY_LABEL, optionsOf } from '../../../../contract/enums.ts';
import { timingFieldsOf, type TimingState } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;
const WEEK_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

export function TimingFields({ timing, onChange, disabledReason, error }: {
  timing: TimingState;
  onChange: (next: TimingState) => void;
  /** Why timing cannot be switched on (local-upload types); null when it can. */
  disabledReason?: string | null;
  error?: string | undefined;
}) {
  const set = (patch: Partial<TimingState>) => onChange({ ...timing, ...patch });
  const fields = timingFieldsOf(timing.cronType, timing.weekFlag);
  const toggle = (list: number[], n: number) => (list.includes(n) ? list.filter((x) => x !== n) : [...list, n]);
  const on = timing.enableTiming && !disabledReason;
  return (
    <div className="cairn-timing">
      <Switch
        label={t.enableTiming}
        checked={on}
        disabled={Boolean(disabledReason)}
        onChange={(e) => set({ enableTiming: e.currentTarget.checked })}
      />
      {disabledReason ? <div className="cairn-muted cairn-form-note">{disabledReason}</div> : null}
      {on ? (
        <div className="cairn-timing-fields">
          <FormGroup label={t.cronType} labelFor="cron-type" inline>
            <HTMLSelect
              id="cron-type"
              value={timing.cronType}
              options={optionsOf(CRON_TYPE_LABEL)}
              onChange={(e) => set({ cronType: Number(e.currentTarget.value) })}
            />
          </FormGroup>
          {fields.includes('interval') ? (
            <FormGroup label={t.interval} labelFor="cron-interval" inline>
              <div className="cairn-inline-inputs">
                <span>{t.every}</span>
                <NumericInput
                  id="cron-interval"
                  min={1}
                  max={366}
                  value={timing.interval}
                  onValueChange={(v) => set({ interval: Number.isFinite(v) && v >= 1 ? Math.floor(v) : 1 })}
                  style={{ width: 64 }}
                />
                <span>{t.intervalUnit[timing.cronType] ?? ''}</span>
              </div>
            </FormGroup>
          ) : null}
          {fields.includes('month') ? (
            <FormGroup label={t.month} labelFor="cron-month" inline>
              <HTMLSelect
                id="cron-month"
                value={timing.month}
                options={MONTH_DAYS.map((d) => ({ value: d, label: t.dayOfMonth(d) }))}
                onChange={(e) => set({ month: Number(e.currentTarget.value) })}
              />
            </FormGroup>
          ) : null}
          {fields.includes('week') ? (
            <FormGroup label={t.week} labelFor="cron-week" inline>
              <HTMLSelect id="cron-week" value={timing.week} options={optionsOf(WEEK_DAY_LABEL)} onChange={(e) => set({ week: Number(e.currentTarget.value) })} />
            </FormGroup>
          ) : null}
          {fields.includes('weekFlag') ? (
            <FormGroup label={t.weekFlag} labelFor="cron-week-flag" inline>
              <HTMLSelect
                id="cron-week-flag"
                value={timing.weekFlag}
                options={[{ value: 0, label: t.byDays }, ...[1, 2, 3, 4, 5].map((n) => ({ value: n, label: t.nthWeek(n) }))]}
                onChange={(e) => set({ weekFlag: Number(e.currentTarget.value) })}
              />
            </FormGroup>
          ) : null}
          {fields.includes('weekDay') ? (
            <FormGroup label={t.week} labelFor="cron-weekday" inline>
              <HTMLSelect
                id="cron-weekday"
                value={timing.weekDays[0] ?? 1}
                options={optionsOf(WEEK_DAY_LABEL)}
                onChange={(e) => set({ weekDays: [Number(e.currentTarget.value)] })}
              />
            </FormGroup>
          ) : null}
          {fields.includes('days') ? (
            <FormGroup label={t.days} inline>
              <div className="cairn-day-grid" role="group" aria-label={t.days}>
                {MONTH_DAYS.map((d) => (
                  <Checkbox key={d} inline label={String(d)} checked={timing.days.includes(d)} onChange={() => set({ days: toggle(timing.days, d) })} />
                ))}
              </div>
            </FormGroup>
          ) : null}
          {fields.includes('weekDays') ? (
            <FormGroup label={t.weekDays} inline>
              <div role="group" aria-label={t.weekDays}>
                {WEEK_DAYS.map((d) => (
                  <Checkbox key={d} inline label={WEEK_DAY_LABEL[d]} checked={timing.weekDays.includes(d)} onChange={() => set({ weekDays: toggle(timing.weekDays, d) })} />
                ))}
              </div>
            </FormGroup>
          ) : null}
          <FormGroup label={t.time} labelFor="cron-time" inline>
            <InputGroup
              id="cron-time"
              type="time"
              value={timing.time}
              onChange={(e) => set({ time: e.currentTarget.value || '02:00' })}
              style={{ width: 120 }}
            />
          </FormGroup>
          {error ? <div className="cairn-text-danger">{error}</div> : null}
        </div>
      ) : null}
    </div>
  );
}
