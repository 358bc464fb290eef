// The options of every source-type select (the project form, the task list's filter, the batch
// import's rows): the contract's groups in its order (contract/sources.ts), nothing kept here.
import { SOURCE_GROUPS, unsupportedSource } from '../../../../contract/sources.ts';
import { codeTypeOptionLabel } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

/**
 * The options of a source-type select: the contract's groups in its order (contract/sources.ts),
 * `only` keeping some types; `marked` labels the types the platform cannot analyse yet.
 */
export function SourceTypeOptions({ only, marked = false }: { only?: (code: number) => boolean; marked?: boolean }) {
  return SOURCE_GROUPS.map((g) => {
    const codes = only ? g.codes.filter(only) : g.codes;
    if (codes.length === 0) return null;
    return (
      <optgroup key={g.label} label={g.label}>
        {codes.map((c) => {
          const label = codeTypeOptionLabel(c);
          return <option key={c} value={c}>{marked && unsupportedSource(c) ? zh.project.form.pendingOption(label) : label}</option>;
        })}
      </optgroup>
    );
  });
}
