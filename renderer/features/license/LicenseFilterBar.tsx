// The licence list's filter bar: keyword (applied on Enter or 查询), level tags in the level
// colours, copyleft strength, OSI approval, reset. The pieces are the shared ones in common/filters.tsx.
import { useEffect, useState } from 'react';
import { Card, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../common/filters.tsx';
import { LevelCheckTags } from '../bug/FilterBar.tsx';
import { COPYLEFT_CODES, DEFAULT_LICENSE_STATE, changedLicense, hasLicenseFilters, toggleText, type LicenseListState, type OsiFilter } from './licenseQuery.ts';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.license;

export function LicenseFilterBar({ state, onChange }: { state: LicenseListState; onChange: (next: LicenseListState) => void }) {
  const [keyword, setKeyword] = useState(state.keyword);
  useEffect(() => setKeyword(state.keyword), [state.keyword]);
  const apply = (patch: Partial<LicenseListState>) => onChange(changedLicense(state, patch));

  return (
    <Card className="cairn-filter-bar">
      <div className="cairn-filter-row">
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => apply({ keyword: k })} />
        <ResetButton
          disabled={!hasLicenseFilters(state) && !keyword}
          onReset={() => {
            setKeyword('');
            onChange({ ...DEFAULT_LICENSE_STATE, size: state.size });
          }}
        />
      </div>
      <div className="cairn-filter-row">
        <LevelCheckTags label={t.level} selected={state.levels} onChange={(levels) => apply({ levels })} />
        <CheckTagGroup
          label={t.copyleft}
          codes={COPYLEFT_CODES}
          selected={state.copyleft}
          labelOf={(code) => t.copyleftLabels[code]}
          onToggle={(code) => apply({ copyleft: toggleText(state.copyleft, code, COPYLEFT_CODES) })}
        />
        <FormGroup inline label={t.osi} labelFor="license-osi" className="cairn-filter-group">
          <HTMLSelect
            id="license-osi"
            value={state.osi}
            onChange={(e) => apply({ osi: e.currentTarget.value as OsiFilter })}
            options={(['', 'yes', 'no'] as const).map((v) => ({ value: v, label: t.osiOptions[v] }))}
          />
        </FormGroup>
      </div>
    </Card>
  );
}
