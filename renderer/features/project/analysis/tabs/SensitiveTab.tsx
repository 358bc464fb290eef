// 敏感信息 (analysis mode 9): what the run found in the strings of the upload's files, binaries
// included — internal addresses and hosts, build-machine paths, credentials, private keys, tokens,
// e-mail addresses — with a type filter carrying each type's count, file and keyword searches, and
// each finding's file, byte offset, rule and text (secrets masked by the platform). A run analysed
// without mode 9 says so rather than showing "nothing found".
import { useState } from 'react';
import { Callout, Card, HTMLTable, SegmentedControl, Tag } from '@blueprintjs/core';
import { labelOf } from '../../../../../contract/enums.ts';
import { LEAK_TYPE_LABEL, SECRET_LEAK_TYPES, type LeakType } from '../../../../../contract/leak-types.ts';
import { useLeakListQuery, useLeakTypesQuery } from '../../../../api/leakApi.ts';
import { KeywordSearch } from '../../../../common/list/filters.tsx';
import { Pager } from '../../../../common/list/Pager.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../../common/states.tsx';
import { useTaskView } from '../context.ts';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.sensitive;
const SIZE = 20;

export function SensitiveTab() {
  const { projectId, run } = useTaskView();
  const [type, setType] = useState<LeakType | ''>('');
  const [file, setFile] = useState('');
  const [fileApplied, setFileApplied] = useState('');
  const [keyword, setKeyword] = useState('');
  const [keywordApplied, setKeywordApplied] = useState('');
  const [page, setPage] = useState(1);
  const counts = useLeakTypesQuery({ projectId, taskId: run.id });
  const q = useLeakListQuery({
    projectId, taskId: run.id, page, size: SIZE,
    ...(type && { type }), ...(fileApplied && { file: fileApplied }), ...(keywordApplied && { keyword: keywordApplied }),
  });
  const c = t.columns;
  const filtered = Boolean(type || fileApplied || keywordApplied);

  if (counts.isLoading) return <LoadingState />;
  if (counts.isError || !counts.data) return <ErrorState title={t.loadFailed} message={counts.error?.message} onRetry={() => void counts.refetch()} />;
  if (!counts.data.analysed && counts.data.total === 0) return <EmptyState title={t.notAnalysed} description={t.notAnalysedBody} icon="key" />;
  if (counts.data.total === 0) return <EmptyState title={t.empty} description={t.emptyBody} icon="shield" />;

  let body;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.content.length === 0) body = <EmptyState title={filtered ? t.emptyFiltered : t.empty} description={filtered ? t.emptyFilteredBody : t.emptyBody} icon="search" />;
  else
    body = (
      <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
        <HTMLTable className="cairn-table" striped compact>
          <thead>
            <tr>
              <th>{c.file}</th>
              <th>{c.offset}</th>
              <th>{c.type}</th>
              <th>{c.rule}</th>
              <th>{c.text}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.content.map((r) => (
              <tr key={r.id}>
                <td className="cairn-leak-file" title={r.file}>{r.file}</td>
                <td className="cairn-mono" title={t.offsetTitle(r.offset)}>{t.offset(r.offset)}</td>
                <td>
                  <Tag minimal intent={SECRET_LEAK_TYPES.includes(r.type) ? 'danger' : 'warning'}>{labelOf(LEAK_TYPE_LABEL, r.type)}</Tag>
                </td>
                <td>{r.ruleName}</td>
                <td><code className="cairn-leak-text">{r.text}</code></td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Pager page={page} size={SIZE} total={q.data.total} onPage={setPage} />
      </Card>
    );

  const options = [
    { value: '', label: `${t.all} ${counts.data.total}` },
    ...counts.data.types.filter((x) => x.count > 0).map((x) => ({ value: x.type, label: `${labelOf(LEAK_TYPE_LABEL, x.type)} ${x.count}` })),
  ];
  return (
    <div className="cairn-sensitive-tab">
      <Callout intent="warning" icon="shield" className="cairn-leak-summary">
        <strong>{t.summary(counts.data.total, counts.data.files)}</strong>
        <div className="cairn-muted">{t.maskedNote}</div>
      </Callout>
      <Card className="cairn-filter-bar cairn-filter-row">
        <SegmentedControl aria-label={t.type} value={type} onValueChange={(v) => { setType(v as LeakType | ''); setPage(1); }} options={options} />
        <KeywordSearch label={t.file} placeholder={t.filePlaceholder} value={file} onValueChange={setFile} onSearch={(k) => { setFileApplied(k.trim()); setPage(1); }} />
        <KeywordSearch label={t.keyword} placeholder={t.keywordPlaceholder} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setKeywordApplied(k.trim()); setPage(1); }} />
      </Card>
      {body}
    </div>
  );
}
