// /system/knowledgeBase/protocol 许可证知识库 (setup:knowledge:license): every licence with a level
// selector that saves at once (system/edit), an 已修改 tag where an administrator changed the
// shipped level, a keyword / level filter and 仅显示已修改. Filters and page live in the URL query.
import { Card, FormGroup, HTMLSelect, Switch, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { LicenseRow } from '../../../../contract/api/license.ts';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../../contract/enums.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useEditLicenseLevelMutation, useSystemLicenseListQuery } from '../../../api/licenseApi.ts';
import { usePermissions } from '../../../app/hooks.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { FilterBar } from '../../../common/list/FilterBar.tsx';
import { useListState } from '../../../common/list/useListState.ts';
import { changed, clearFilters, code, flag, hasFilters, readUrlState, text, writeUrlState, type UrlState } from '../../../common/list/urlState.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { LevelTag, levelColor, levelLabel } from '../../../common/levels.tsx';
import { Pager } from '../../../common/list/Pager.tsx';
import { LicenseTable } from '../../../common/license/LicenseTable.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;
const ADMIN = 'setup:knowledge:license';

/** q=keyword  level=1|2|4|8|16  edited=1  page  size */
const SYSTEM_LICENSE_FIELDS = { keyword: text('q'), level: code('level', LEVEL_CODES), edited: flag('edited') };

export type SystemLicenseState = UrlState<typeof SYSTEM_LICENSE_FIELDS>;

export const readSystemLicenseState = (params: URLSearchParams): SystemLicenseState => readUrlState(SYSTEM_LICENSE_FIELDS, params);

export const writeSystemLicenseState = (state: SystemLicenseState, base: URLSearchParams): URLSearchParams => writeUrlState(SYSTEM_LICENSE_FIELDS, state, base);

function LevelSelect({ row, disabled, onPick }: { row: LicenseRow; disabled: boolean; onPick: (level: VulnerabilityLevel) => void }) {
  return (
    <HTMLSelect
      className="cairn-level-select"
      aria-label={t.levelOf(row.spdxId)}
      value={row.level}
      disabled={disabled}
      style={{ color: levelColor(row.level), fontWeight: 600 }}
      onChange={(e) => onPick(Number(e.currentTarget.value) as VulnerabilityLevel)}
      options={LEVEL_CODES.map((l) => ({ value: l, label: levelLabel(l) }))}
    />
  );
}

export default function SystemLicenseScreen() {
  const [state, setListState] = useListState(readSystemLicenseState, writeSystemLicenseState);
  const setState = (patch: Partial<SystemLicenseState>) => setListState(changed(state, patch));
  const navigate = useNavigate();
  const has = usePermissions();
  const canAdmin = has(ADMIN);
  const list = useSystemLicenseListQuery({
    page: state.page,
    size: state.size,
    ...(state.keyword ? { keyword: state.keyword } : {}),
    ...(state.level !== null ? { level: state.level } : {}),
    ...(state.edited ? { edited: true } : {}),
  });
  const [edit, editing] = useEditLicenseLevelMutation();

  const pick = async (row: LicenseRow, level: VulnerabilityLevel) => {
    if (level === row.level) return;
    try {
      await edit({ id: row.id, level }).unwrap();
      notify.success(t.levelChanged);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  const filters = (
    <FilterBar
      keyword={{ label: t.keyword, placeholder: t.keywordPlaceholder, value: state.keyword, onSearch: (k) => setState({ keyword: k }) }}
      inline={
        <>
          <FormGroup inline label={t.level} labelFor="license-level" className="cairn-filter-group">
            <HTMLSelect
              id="license-level"
              value={state.level ?? ''}
              onChange={(e) => setState({ level: e.currentTarget.value ? (Number(e.currentTarget.value) as VulnerabilityLevel) : null })}
              options={[{ value: '', label: t.allLevels }, ...LEVEL_CODES.map((l) => ({ value: l, label: levelLabel(l) }))]}
            />
          </FormGroup>
          <Switch className="cairn-filter-switch" label={t.onlyEdited} checked={state.edited} onChange={(e) => setState({ edited: e.currentTarget.checked })} />
        </>
      }
      filtered={hasFilters(SYSTEM_LICENSE_FIELDS, state)}
      onReset={() => setListState(clearFilters(SYSTEM_LICENSE_FIELDS, state))}
    />
  );

  let body: React.ReactNode;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState title={t.systemLoadFailed} message={list.error.message} onRetry={() => void list.refetch()} />;
  else if (!list.data || list.data.content.length === 0) body = <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" />;
  else {
    body = (
      <Card className={list.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <LicenseTable
          rows={list.data.content}
          onOpen={(row) => navigate(`/license/details?id=${row.id}`)}
          levelCell={canAdmin ? (row) => <LevelSelect row={row} disabled={editing.isLoading} onPick={(l) => void pick(row, l)} /> : undefined}
          extra={{
            header: t.columns.edited,
            cell: (row) =>
              row.levelEdited ? (
                <span className="cairn-edited-cell">
                  <Tag minimal intent="warning">
                    {t.editedTag}
                  </Tag>
                  <span className="cairn-muted">
                    {t.defaultLevel} <LevelTag level={row.defaultLevel} />
                  </span>
                </span>
              ) : null,
          }}
        />
        <Pager page={state.page} size={state.size} total={list.data.total} onPage={(page) => setState({ page })} onSize={(size) => setState({ size })} />
      </Card>
    );
  }

  return (
    <Page title={routeTitle('/system/knowledgeBase/protocol')} subtitle={t.systemSubtitle}>
      {filters}
      {body}
    </Page>
  );
}
