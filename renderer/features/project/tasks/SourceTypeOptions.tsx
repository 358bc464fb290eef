// The options of every source-type select (the project form, the task list's filter, the batch
// import's rows): the contract's groups in its order (contract/sources.ts), nothing kept here.
// Groups name what is analysed (源码 / 容器镜像 / 二进制 / SBOM / 清单), options where it comes from.
import { SOURCE_GROUPS, sourceTypeOf, unsupportedSource } from '../../../../contract/sources.ts';
import { codeTypeOptionLabel } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

/**
 * The options of a source-type select: the contract's groups in its order (contract/sources.ts),
 * `only` keeping some types; `marked` labels the types the platform cannot analyse yet; `current`,
 * a stored code the selects do not offer (another code of the same source), is listed after its
 * source so the select shows it.
 */
export function SourceTypeOptions({ only, marked = false, current }: { only?: (code: number) => boolean; marked?: boolean; current?: number | null }) {
  const alias = current != null ? sourceTypeOf(current) : undefined;
  return SOURCE_GROUPS.map((g) => {
    const offered = alias?.aliasOf != null && g.codes.includes(alias.aliasOf)
      ? g.codes.flatMap((c) => (c === alias.aliasOf ? [c, alias.code] : [c]))
      : g.codes;
    const codes = only ? offered.filter(only) : offered;
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
