// The vulnerability list's filter bar: keyword (applied on Enter or 查询), level multi-select in
// the level colours, exploit difficulty, ecosystem, source, published date range, reset.
import { useEffect, useState } from 'react';
import { Card, ControlGroup, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../common/filters.tsx';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { ECOSYSTEMS, EXPLOIT_CODES, SOURCE_CODES, changed, hasFilters, toggleCode, DEFAULT_LIST_STATE, type ExploitCode, type ListState, type SourceCode } from './listQuery.ts';
import { exploitLabel, levelColor, levelLabel } from './levels.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.vul;

/** The level check tags in the level colours; also the licence list's. */
export function LevelCheckTags({ label, selected, onChange }: { label: string; selected: readonly VulnerabilityLevel[]; onChange: (levels: VulnerabilityLevel[]) => void }) {
  return (
    <CheckTagGroup
      label={label}
      codes={LEVEL_CODES}
      selected={selected}
      labelOf={levelLabel}
      color={levelColor}
      onToggle={(level) => onChange(toggleCode<VulnerabilityLevel>(selected, level, LEVEL_CODES))}
    />
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
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => apply({ keyword: k })} />
        <ResetButton
          disabled={!hasFilters(state) && !keyword}
          onReset={() => {
            setKeyword('');
            onChange({ ...DEFAULT_LIST_STATE, sort: state.sort, order: state.order, size: state.size });
          }}
        />
      </div>
      <div className="cairn-filter-row">
        <LevelCheckTags label={t.level} selected={state.levels} onChange={(levels) => apply({ levels })} />
        <CheckTagGroup
          label={t.exploit}
          codes={EXPLOIT_CODES}
          selected={state.exploit}
          labelOf={exploitLabel}
          onToggle={(code) => apply({ exploit: toggleCode<ExploitCode>(state.exploit, code, EXPLOIT_CODES) })}
        />
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
