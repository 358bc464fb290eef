// The filter bar over a list: the keyword box (applied on Enter or 查询) with 重置 in the first row,
// the list's own filters in the rows under it. UrlFilterBar draws the rows from declarations over
// a list's URL fields (urlState.ts): text boxes (applied on Enter), check tags, selects, date
// ranges and switches.
import { useEffect, useState, type ReactNode } from 'react';
import { Card, ControlGroup, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { CheckTagGroup, KeywordSearch, ResetButton } from './filters.tsx';
import { changed, clearFilters, hasFilters, toggleCode, type FieldValues, type UrlFields, type UrlState } from './urlState.ts';
import './styles.ts';
import { DateField } from '../form/DateField.tsx';

export interface KeywordBox {
  label: string;
  placeholder: string;
  /** The applied keyword (from the URL). */
  value: string;
  onSearch: (keyword: string) => void;
}

export function FilterBar({ keyword, inline, filtered, onReset, children }: {
  keyword?: KeywordBox;
  /** Filters in the keyword's row, before 重置 (a bar with few filters). */
  inline?: ReactNode;
  /** Whether any filter is applied (重置 is enabled then, or while a keyword is typed). */
  filtered: boolean;
  onReset: () => void;
  children?: ReactNode;
}) {
  const applied = keyword?.value ?? '';
  const [typed, setTyped] = useState(applied);
  // Back/forward changes the URL, and with it the applied keyword: follow it.
  useEffect(() => setTyped(applied), [applied]);
  return (
    <Card className="cairn-filter-bar">
      <div className="cairn-filter-row">
        {keyword ? <KeywordSearch label={keyword.label} placeholder={keyword.placeholder} value={typed} onValueChange={setTyped} onSearch={keyword.onSearch} /> : null}
        {inline}
        <ResetButton
          disabled={!filtered && !typed}
          onReset={() => {
            setTyped('');
            onReset();
          }}
        />
      </div>
      {children}
    </Card>
  );
}

function FilterRow({ children }: { children: ReactNode }) {
  return <div className="cairn-filter-row">{children}</div>;
}

// ---- declared filters ----------------------------------------------------------------------------

/** The names of the fields whose value is a T. */
type FieldOf<V, T> = { [K in keyof V]: V[K] extends T ? K : never }[keyof V] & string;

export type FilterControl<V> =
  | { kind: 'text'; field: FieldOf<V, string>; label: string; placeholder?: string }
  | { kind: 'tags'; field: FieldOf<V, Array<string | number>>; label: string; codes: readonly (string | number)[]; labelOf: (code: any) => string; color?: (code: any) => string }
  | { kind: 'select'; field: FieldOf<V, string>; label: string; options: ReadonlyArray<{ value: string; label: string }> }
  | { kind: 'dateRange'; from: FieldOf<V, string>; to: FieldOf<V, string>; label: string; fromLabel: string; toLabel: string }
  | { kind: 'switch'; field: FieldOf<V, boolean>; label: string };

export interface FilterControls<V> {
  keyword?: { field: FieldOf<V, string>; label: string; placeholder: string };
  /** Rows under the keyword, each a list of controls. */
  rows: ReadonlyArray<ReadonlyArray<FilterControl<V>>>;
}

/** A text filter other than the keyword: typed freely, applied (trimmed) on Enter. */
function TextFilter({ id, label, placeholder, value, onApply }: { id: string; label: string; placeholder?: string | undefined; value: string; onApply: (value: string) => void }) {
  const [typed, setTyped] = useState(value);
  useEffect(() => setTyped(value), [value]);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onApply(typed.trim());
      }}
    >
      <FormGroup inline label={label} labelFor={id} className="cairn-filter-group">
        <InputGroup id={id} value={typed} placeholder={placeholder} maxLength={200} onValueChange={setTyped} />
      </FormGroup>
    </form>
  );
}

function Control<V>({ control, values, apply }: { control: FilterControl<V>; values: V; apply: (patch: Partial<V>) => void }) {
  const value = (field: keyof V) => values[field] as unknown;
  const set = (field: keyof V, v: unknown) => apply({ [field]: v } as Partial<V>);
  switch (control.kind) {
    case 'text':
      return <TextFilter id={`filter-${control.field}`} label={control.label} placeholder={control.placeholder} value={value(control.field) as string} onApply={(v) => set(control.field, v)} />;
    case 'tags': {
      const selected = value(control.field) as Array<string | number>;
      return (
        <CheckTagGroup
          label={control.label}
          codes={control.codes}
          selected={selected}
          labelOf={control.labelOf}
          {...(control.color ? { color: control.color } : {})}
          onToggle={(code) => set(control.field, toggleCode(selected, code, control.codes))}
        />
      );
    }
    case 'select':
      return (
        <FormGroup inline label={control.label} labelFor={`filter-${control.field}`} className="cairn-filter-group">
          <HTMLSelect id={`filter-${control.field}`} value={value(control.field) as string} onChange={(e) => set(control.field, e.currentTarget.value)} options={[...control.options]} />
        </FormGroup>
      );
    case 'dateRange': {
      const from = value(control.from) as string;
      const to = value(control.to) as string;
      return (
        <FormGroup inline label={control.label} className="cairn-filter-group">
          <ControlGroup>
            <DateField ariaLabel={control.fromLabel} value={from} max={to || undefined} onChange={(v) => set(control.from, v)} />
            <span className="cairn-range-dash">~</span>
            <DateField ariaLabel={control.toLabel} value={to} min={from || undefined} onChange={(v) => set(control.to, v)} />
          </ControlGroup>
        </FormGroup>
      );
    }
    case 'switch':
      return <Switch className="cairn-filter-switch" label={control.label} checked={value(control.field) as boolean} onChange={(e) => set(control.field, e.currentTarget.checked)} />;
  }
}

const controlKey = <V,>(c: FilterControl<V>): string => (c.kind === 'dateRange' ? `${c.from}-${c.to}` : c.field);

/** The filter bar of a list whose filters are URL fields: every change returns to page 1. */
export function UrlFilterBar<F extends UrlFields>({ fields, controls, state, onChange }: {
  fields: F;
  controls: FilterControls<FieldValues<F>>;
  state: UrlState<F>;
  onChange: (next: UrlState<F>) => void;
}) {
  const apply = (patch: Partial<FieldValues<F>>) => onChange(changed(state, patch as Partial<UrlState<F>>));
  const keyword = controls.keyword;
  return (
    <FilterBar
      {...(keyword ? { keyword: { label: keyword.label, placeholder: keyword.placeholder, value: state[keyword.field] as string, onSearch: (k: string) => apply({ [keyword.field]: k } as Partial<FieldValues<F>>) } } : {})}
      filtered={hasFilters(fields, state)}
      onReset={() => onChange(clearFilters(fields, state))}
    >
      {controls.rows.map((row, i) => (
        <FilterRow key={i}>
          {row.map((control) => (
            <Control key={controlKey(control)} control={control} values={state as FieldValues<F>} apply={apply} />
          ))}
        </FilterRow>
      ))}
    </FilterBar>
  );
}
