// The licence list's filter bar: keyword (applied on Enter or 查询), level tags in the level
// colours, copyleft strength, OSI approval, reset. The tag pieces are the vulnerability list's.
import { useEffect, useState } from 'react';
import { Button, Card, ControlGroup, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { CheckTag } from '../bug/FilterBar.tsx';
import { toggleCode } from '../bug/listQuery.ts';
import { levelColor, levelLabel } from '../bug/levels.tsx';
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
        <form
          className="cairn-filter-keyword"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            apply({ keyword: keyword.trim() });
          }}
        >
          <ControlGroup>
            <InputGroup fill leftIcon="search" aria-label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} maxLength={200} onValueChange={setKeyword} />
            <Button type="submit" intent="primary" text={zh.vul.search} />
          </ControlGroup>
        </form>
        <Button
          icon="reset"
          variant="minimal"
          text={zh.vul.reset}
          disabled={!hasLicenseFilters(state) && !keyword}
          onClick={() => {
            setKeyword('');
            onChange({ ...DEFAULT_LICENSE_STATE, size: state.size });
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
        <FormGroup inline label={t.copyleft} className="cairn-filter-group">
          <div className="cairn-check-tags" role="group" aria-label={t.copyleft}>
            {COPYLEFT_CODES.map((code) => (
              <CheckTag
                key={code}
                label={t.copyleftLabels[code]}
                checked={state.copyleft.includes(code)}
                onToggle={() => apply({ copyleft: toggleText(state.copyleft, code, COPYLEFT_CODES) })}
              />
            ))}
          </div>
        </FormGroup>
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
