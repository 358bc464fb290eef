// /system/log/openApi 开放接口日志 (setup:log): every call made in a session a personal token
// opened — when, by whom, with which token, which call, how it was answered, how long it took and
// from where — newest first, filtered in the URL by caller, token, path, outcome, status and date
// range. Read-only; what the log keeps is said above the filters. Built from the shared list pieces.
import { Callout, Tag } from '@blueprintjs/core';
import { OPEN_API_OUTCOME_LABEL, type OpenApiLogRow } from '../../../../contract/api/open-api-log.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useOpenApiLogQuery, type OpenApiLogArgs } from '../../../api/tokenApi.ts';
import type { Column } from '../../../common/list/DataTable.tsx';
import type { FilterControls } from '../../../common/list/FilterBar.tsx';
import { ListScreen } from '../../../common/list/ListScreen.tsx';
import { useUrlState } from '../../../common/list/useListState.ts';
import { day, oneOf, text, type FieldValues } from '../../../common/list/urlState.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './openApiLog.css';

const t = zh.token.openApiLog;
const PATH = '/system/log/openApi';
const OUTCOMES = ['success', 'failure'] as const;
const STATUSES = ['200', '400', '401', '403', '404', '429', '500', '501'] as const;

/** ?user=&token=&path=&outcome=&status=&from=&to=&page=&size= */
const FIELDS = {
  username: text('user', 100),
  tokenName: text('token', 100),
  path: text('path', 200),
  outcome: oneOf('outcome', OUTCOMES, ''),
  status: oneOf('status', STATUSES, ''),
  from: day('from'),
  to: day('to'),
};

const FILTERS: FilterControls<FieldValues<typeof FIELDS>> = {
  keyword: { field: 'username', label: t.keyword, placeholder: t.keywordPlaceholder },
  rows: [
    [
      { kind: 'text', field: 'tokenName', label: t.tokenName, placeholder: t.tokenNamePlaceholder },
      { kind: 'text', field: 'path', label: t.call, placeholder: t.callPlaceholder },
    ],
    [
      { kind: 'select', field: 'outcome', label: t.outcome, options: [{ value: '', label: zh.list.all }, ...OUTCOMES.map((o) => ({ value: o, label: OPEN_API_OUTCOME_LABEL[o] }))] },
      { kind: 'select', field: 'status', label: t.status, options: [{ value: '', label: zh.list.all }, ...STATUSES.map((s) => ({ value: s, label: s }))] },
      { kind: 'dateRange', from: 'from', to: 'to', label: t.time, fromLabel: t.from, toLabel: t.to },
    ],
  ],
};

const COLUMNS: ReadonlyArray<Column<OpenApiLogRow>> = [
  { key: 'at', title: t.at, cell: (r) => formatDateTime(r.at) },
  { key: 'user', title: t.user, cell: (r) => r.username },
  { key: 'token', title: t.tokenName, cell: (r) => r.tokenName },
  {
    key: 'call', title: t.call, className: 'cairn-col-name', cell: (r) => (
      <span className="cairn-open-log-call">
        {r.callSummary ? <span>{r.callSummary}</span> : null}
        <span className="cairn-open-log-path">
          <Tag minimal className="cairn-open-log-method">{r.method}</Tag>
          {r.path}
        </span>
      </span>
    ),
  },
  {
    key: 'outcome', title: t.outcome, cell: (r) => (
      <Tag minimal intent={r.outcome === 'success' ? 'success' : 'danger'}>{`${OPEN_API_OUTCOME_LABEL[r.outcome]} · ${r.status}`}</Tag>
    ),
  },
  { key: 'duration', title: t.duration, className: 'cairn-col-number', cell: (r) => t.durationMs(r.durationMs) },
  { key: 'ip', title: t.ip, cell: (r) => r.ip },
];

/** A local calendar day's start or end as the ISO time the platform compares with. */
const dayBound = (value: string, end: boolean): string => new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}`).toISOString();

export default function OpenApiLogScreen() {
  const [state, setState] = useUrlState(FIELDS);
  const args: OpenApiLogArgs = {
    page: state.page,
    size: state.size,
    ...(state.username && { username: state.username }),
    ...(state.tokenName && { tokenName: state.tokenName }),
    ...(state.path && { path: state.path }),
    ...(state.outcome && { outcome: state.outcome }),
    ...(state.status && { status: Number(state.status) }),
    ...(state.from && { from: dayBound(state.from, false) }),
    ...(state.to && { to: dayBound(state.to, true) }),
  };
  const list = useOpenApiLogQuery(args, { refetchOnMountOrArgChange: true });
  const retention = list.data?.retention;

  return (
    <ListScreen
      title={routeTitle(PATH)}
      subtitle={t.subtitle}
      fields={FIELDS}
      state={state}
      onState={setState}
      filters={FILTERS}
      list={list}
      columns={COLUMNS}
      rowKey={(row) => row.id}
      rowLabel={(row) => `${row.method} ${row.path}`}
      banner={retention ? <Callout icon="history" compact className="cairn-open-log-retention">{t.retention(retention.days, retention.maxRows)}</Callout> : null}
      texts={{ loadFailed: t.loadFailed, emptyFiltered: t.emptyFiltered, emptyFilteredBody: t.emptyFilteredBody }}
      empty={{ title: t.empty, description: t.emptyBody, icon: 'exchange' }}
    />
  );
}
