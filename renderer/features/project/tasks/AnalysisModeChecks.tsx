// The analysis-mode checkboxes of the project form and the batch screens, in the spec's order. A
// mode the engine does not run yet (contract/enums.ts isAnalysisModeOffered) is shown disabled, unticked,
// with 暂未提供: it cannot be chosen.
import { Checkbox } from '@blueprintjs/core';
import { ANALYSIS_MODE_LABEL, ANALYSIS_MODE_ORDER, isAnalysisModeOffered } from '../../../../contract/enums.ts';
import { NotYetTag } from '../../../common/NotYetTag.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

export function AnalysisModeChecks({ selected, onToggle }: { selected: readonly number[]; onToggle: (mode: number) => void }) {
  return ANALYSIS_MODE_ORDER.map((m) =>
    isAnalysisModeOffered(m) ? (
      <Checkbox key={m} inline label={ANALYSIS_MODE_LABEL[m]} checked={selected.includes(m)} onChange={() => onToggle(m)} />
    ) : (
      <Checkbox
        key={m}
        inline
        disabled
        checked={false}
        className="cairn-mode-pending"
        labelElement={
          <>
            {ANALYSIS_MODE_LABEL[m]} <NotYetTag hint={zh.project.form.pendingMode(ANALYSIS_MODE_LABEL[m])} />
          </>
        }
      />
    ),
  );
}
