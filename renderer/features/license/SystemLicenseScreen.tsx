// /system/knowledgeBase/protocol 许可证知识库 (setup:knowledge:license): every licence with a level
// selector that saves at once (system/edit), an 已修改 tag where an administrator changed the
// shipped level, a keyword / level filter and 仅显示已修改. Filters and page live in the URL query.
import { useEffect, useState } from 'react';
import { Card, FormGroup, HTMLSelect, Switch, Tag } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { LicenseRow } from '../../../contract/api/license.ts';
import { LEVEL_CODES, type VulnerabilityLevel } from '../../../contract/enums.ts';
import { routeTitle } from '../../../contract/routes.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { useEditLicenseLevelMutation, useSystemLicenseListQuery } from '../../api/licenseApi.ts';
import { usePermissions } from '../../app/hooks.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { KeywordSearch, ResetButton } from '../../common/filters.tsx';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { PAGE_SIZES } from '../bug/listQuery.ts';
import { LevelTag, levelColor, levelLabel } from '../bug/levels.tsx';
import { Pager } from '../bug/Pager.tsx';
import { LicenseTable } from './LicenseTable.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.license;
const ADMIN = 'setup:knowledge:license';

export interface SystemLicenseState {
  keyword: string;
  level: VulnerabilityLevel | null;
  edited: boolean;
  page: number;
  size: number;
}

export function readSystemLicenseState(params: URLSearchParams): SystemLicenseState {
  const level = Number(params.get('level'));
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    keyword: (params.get('q') ?? '').slice(0, 200),
    level: (LEVEL_CODES as readonly number[]).includes(level) ? (level as VulnerabilityLevel) : null,
    edited: params.get('edited') === '1',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: PAGE_SIZES.includes(size) ? size : 15,
  };
}

export function writeSystemLicenseState(s: SystemLicenseState, base: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const k of ['q', 'level', 'edited', 'page', 'size']) out.delete(k);
  if (s.keyword.trim()) out.set('q', s.keyword.trim());
  if (s.level !== null) out.set('level', String(s.level));
  if (s.edited) out.set('edited', '1');
  if (s.page !== 1) out.set('page', String(s.page));
  if (s.size !== 15) out.set('size', String(s.size));
  return out;
}

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
  const [params, setParams] = useSearchParams();
  const state = readSystemLicenseState(params);
  const setState = (patch: Partial<SystemLicenseState>) => {
    const next = { ...state, ...patch };
    if (!('page' in patch)) next.page = 1;
    setParams((old) => writeSystemLicenseState(next, old));
  };
  const navigate = useNavigate();
  const has = usePermissions();
  const canAdmin = has(ADMIN);
  const [keyword, setKeyword] = useState(state.keyword);
  useEffect(() => setKeyword(state.keyword), [state.keyword]);
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
    <Card className="cairn-filter-bar">
      <div className="cairn-filter-row">
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => setState({ keyword: k })} />
        <FormGroup inline label={t.level} labelFor="license-level" className="cairn-filter-group">
          <HTMLSelect
            id="license-level"
            value={state.level ?? ''}
            onChange={(e) => setState({ level: e.currentTarget.value ? (Number(e.currentTarget.value) as VulnerabilityLevel) : null })}
            options={[{ value: '', label: t.allLevels }, ...LEVEL_CODES.map((l) => ({ value: l, label: levelLabel(l) }))]}
          />
        </FormGroup>
        <Switch className="cairn-filter-switch" label={t.onlyEdited} checked={state.edited} onChange={(e) => setState({ edited: e.currentTarget.checked })} />
        <ResetButton
          disabled={!state.keyword && state.level === null && !state.edited && !keyword}
          onReset={() => {
            setKeyword('');
            setState({ keyword: '', level: null, edited: false });
          }}
        />
      </div>
    </Card>
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
