// Filter-bar pieces every list shares (FilterBar.tsx and the lists with bars of their own), so the
// keyword box, the reset button and the check-tag groups look and behave alike.
import { Button, ControlGroup, FormGroup, InputGroup, Tag } from '@blueprintjs/core';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

function CheckTag({ label, checked, color, onToggle }: { label: string; checked: boolean; color?: string; onToggle: () => void }) {
  const style = color
    ? checked
      ? { backgroundColor: color, color: '#fff', borderColor: color }
      : { color, borderColor: color }
    : undefined;
  // Blueprint's interactive Tag claims role=button; the checkbox semantics sit on a wrapper.
  return (
    <span
      className="cairn-check-tag-wrap"
      role="checkbox"
      aria-checked={checked}
      tabIndex={0}
      onClick={onToggle}
      onKeyDown={(e) => {
        if (e.key === ' ' || e.key === 'Enter') {
          e.preventDefault();
          onToggle();
        }
      }}
    >
      <Tag
        round
        minimal={!checked}
        intent={!color && checked ? 'primary' : undefined}
        icon={checked ? 'tick' : undefined}
        className={checked ? 'cairn-check-tag cairn-check-tag-on' : 'cairn-check-tag'}
        style={style}
      >
        {label}
      </Tag>
    </span>
  );
}

/** A labelled group of check tags, one per code; `color` colours a code's tag (levels). */
export function CheckTagGroup<C extends string | number>(props: {
  label: string;
  codes: readonly C[];
  selected: readonly C[];
  labelOf: (code: C) => string;
  color?: (code: C) => string;
  onToggle: (code: C) => void;
}) {
  const { label, codes, selected, labelOf, color, onToggle } = props;
  return (
    <FormGroup inline label={label} className="cairn-filter-group">
      <div className="cairn-check-tags" role="group" aria-label={label}>
        {codes.map((code) => (
          <CheckTag
            key={code}
            label={labelOf(code)}
            {...(color ? { color: color(code) } : {})}
            checked={selected.includes(code)}
            onToggle={() => onToggle(code)}
          />
        ))}
      </div>
    </FormGroup>
  );
}

/** The keyword box with its 查询 button; the keyword is applied (trimmed) on Enter or 查询. */
export function KeywordSearch(props: {
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  onSearch: (keyword: string) => void;
}) {
  const { label, placeholder, value, onValueChange, onSearch } = props;
  return (
    <form
      className="cairn-filter-keyword"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(value.trim());
      }}
    >
      <ControlGroup>
        <InputGroup fill leftIcon="search" aria-label={label} placeholder={placeholder} value={value} maxLength={200} onValueChange={onValueChange} />
        <Button type="submit" intent="primary" text={zh.list.search} />
      </ControlGroup>
    </form>
  );
}

/** The 重置 button of a filter bar. */
export function ResetButton({ disabled, onReset }: { disabled: boolean; onReset: () => void }) {
  return <Button icon="reset" variant="minimal" text={zh.list.reset} disabled={disabled} onClick={onReset} />;
}
