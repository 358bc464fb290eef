// The vulnerability list's filter bar: keyword (applied on Enter or 查询), level multi-select in
// the level colours, exploit difficulty, ecosystem, source, published date range, reset.
import { useEffect, useState } from 'react';
import { Button, Card, ControlGroup, FormGroup, HTMLSelect, InputGroup, Switch, Tag } from '@blueprintjs/core';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { ECOSYSTEMS, EXPLOIT_CODES, SOURCE_CODES, changed, hasFilters, toggleCode, DEFAULT_LIST_STATE, type ExploitCode, type ListState, type SourceCode } from './listQuery.ts';
import { exploitLabel, levelColor, levelLabel } from './levels.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.vul;

export function CheckTag({ label, checked, color, onToggle }: { label: string; checked: boolean; color?: string; onToggle: () => void }) {
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

export function FilterBar({ state, onChange, showSource = true }: { state: ListState; onChange: (next: ListState) => void; showSource?: boolean }) {
  const [keyword, setKeyword] = useState(state.keyword);
  // Back/forward changes the URL, and with it the applied keyword: follow it.
  useEffect(() => setKeyword(state.keyword), [state.keyword]);
  const apply = (patch: Partial<ListState>) => onChange(changed(state, patch));

  return (
    <Card className="cairn-filter-bar">
      <div className="cairn-filter-row">
        <form
          className="cairn-filter-keyword"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            apply({ keyword: keyword.trim() });
          }}
        >
          <ControlGroup>
            <InputGroup
              fill
              leftIcon="search"
              aria-label={t.keyword}
              placeholder={t.keywordPlaceholder}
              value={keyword}
              maxLength={200}
              onValueChange={setKeyword}
            />
            <Button type="submit" intent="primary" text={t.search} />
          </ControlGroup>
        </form>
        <Button
          icon="reset"
          variant="minimal"
          text={t.reset}
          disabled={!hasFilters(state) && !keyword}
          onClick={() => {
            setKeyword('');
            onChange({ ...DEFAULT_LIST_STATE, sort: state.sort, order: state.order, size: state.size });
          }}
        />
      </div>
      <div className="cairn-filter-row">
        <FormGroup inline label={t.level} className="cairn-filter-group">
          <div className="cairn-check-tags" role="group" aria-label={t.level}>
            {LEVEL_CODES.map((level) => (
              <CheckTag
                key={level}
                label={levelLabel(level)}
                color={levelColor(level)}
                checked={state.levels.includes(level)}
                onToggle={() => apply({ levels: toggleCode<VulnerabilityLevel>(state.levels, level, LEVEL_CODES) })}
              />
            ))}
          </div>
        </FormGroup>
        <FormGroup inline label={t.exploit} className="cairn-filter-group">
          <div className="cairn-check-tags" role="group" aria-label={t.exploit}>
            {EXPLOIT_CODES.map((code) => (
              <CheckTag
                key={code}
                label={exploitLabel(code)}
                checked={state.exploit.includes(code)}
                onToggle={() => apply({ exploit: toggleCode<ExploitCode>(state.exploit, code, EXPLOIT_CODES) })}
              />
            ))}
          </div>
        </FormGroup>
      </div>
      <div className="cairn-filter-row">
        <FormGroup inline label={t.ecosystem} labelFor="vul-eco" className="cairn-filter-group">
          <HTMLSelect
            id="vul-eco"
            value={state.ecosystem}
            onChange={(e) => apply({ ecosystem: e.currentTarget.value })}
            options={[{ value: '', label: t.all }, ...ECOSYSTEMS.map((e) => ({ value: e, label: e }))]}
          />
        </FormGroup>
        {showSource ? (
          <FormGroup inline label={t.source} labelFor="vul-source" className="cairn-filter-group">
            <HTMLSelect
              id="vul-source"
              value={state.source}
              onChange={(e) => apply({ source: e.currentTarget.value as SourceCode | '' })}
              options={[{ value: '', label: t.all }, ...SOURCE_CODES.map((s) => ({ value: s, label: t.sources[s] ?? s }))]}
            />
          </FormGroup>
        ) : null}
        <FormGroup inline label={t.published} className="cairn-filter-group">
          <ControlGroup>
            <InputGroup type="date" aria-label={t.publishedFrom} value={state.from} max={state.to || undefined} onValueChange={(v) => apply({ from: v })} />
            <span className="cairn-range-dash">~</span>
            <InputGroup type="date" aria-label={t.publishedTo} value={state.to} min={state.from || undefined} onValueChange={(v) => apply({ to: v })} />
          </ControlGroup>
        </FormGroup>
        <Switch className="cairn-filter-switch" label={t.includeWithdrawn} checked={state.withdrawn} onChange={(e) => apply({ withdrawn: e.currentTarget.checked })} />
      </div>
    </Card>
  );
}
