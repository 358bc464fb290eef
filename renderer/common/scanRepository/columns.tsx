// The columns of a list of repositories online resolution asks (扫描配置 and an 应用's own).
import { Tag } from '@blueprintjs/core';
import type { ScanRepositoryRow } from '../../../contract/api/scan-config.ts';
import { formatDateTime, orDash } from '../../../contract/format.ts';
import type { Column } from '../list/DataTable.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.system.scanConfig;

export const SCAN_REPOSITORY_COLUMNS: ReadonlyArray<Column<ScanRepositoryRow>> = [
  { key: 'name', title: t.name, className: 'cairn-col-name', cell: (r) => r.name },
  { key: 'url', title: t.url, cell: (r) => <code>{r.url}</code> },
  { key: 'username', title: t.username, cell: (r) => orDash(r.username) },
  { key: 'password', title: t.password, cell: (r) => (r.hasPassword ? t.passwordSet : t.passwordNone) },
  { key: 'enabled', title: t.enabled, cell: (r) => <Tag minimal intent={r.enabled ? 'success' : 'none'}>{r.enabled ? t.on : t.off}</Tag> },
  { key: 'priority', title: t.priority, className: 'cairn-col-number', cell: (r) => r.priority },
  { key: 'remark', title: t.remark, cell: (r) => orDash(r.remark) },
  { key: 'updatedAt', title: t.updatedAt, cell: (r) => formatDateTime(r.updatedAt) },
];
