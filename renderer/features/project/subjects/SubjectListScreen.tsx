// /project/projectList?product= 项目列表: the visible subjects of the product, as a paged list
// (search, sort) or by group (breadcrumbs, child groups, the subjects directly in a group).
// 新建应用, batch delete and the row actions live here; a name opens the subject's task list.
import { Breadcrumbs, Button, ButtonGroup, Card, HTMLSelect, Icon, InputGroup } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SubjectRow } from '../../../../contract/api/subject.ts';
import { isProduct } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { useGroupSubjectsQuery, useRemoveSubjectMutation, useRemoveSubjectsMutation, useSubjectListQuery } from '../../../api/subjectApi.ts';
import { selectProduct, useAppDispatch, useAppSelector, usePermissions } from '../../../app/hooks.ts';
import { sessionActions } from '../../../app/sessionSlice.ts';
import { PagedListBody } from '../../../common/list/PagedListBody.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { CreateSubjectDialog } from './CreateSubjectDialog.tsx';
import { SubjectTable } from './SubjectTable.tsx';
import { TransferDialog } from './TransferForm.tsx';
import { GenerateReportDialog } from '../reports/GenerateReportDialog.tsx';
import './styles.ts';

const t = zh.subject;
const PAGE_SIZE = 15;
type Sort = keyof typeof t.sorts;

export default function SubjectListScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const product = useAppSelector(selectProduct);
  const has = usePermissions();
  // ?product= chooses the product (source / binary), as the home redirect links it.
  const wanted = Number(params.get('product'));
  useEffect(() => {
    if (isProduct(wanted) && wanted !== product) dispatch(sessionActions.productChanged(wanted));
  }, [wanted, product, dispatch]);

  const view = params.get('view') === 'group' ? 'group' : 'list';
  const name = params.get('name') ?? '';
  const sort = (params.get('sort') ?? 'createdAt,desc') as Sort;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const size = Math.max(1, Number(params.get('size')) || PAGE_SIZE);
  const pid = Number(params.get('pid')) || 0;
  const set = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, String(v));
    }
    setParams(next, { replace: true });
  };

  const [search, setSearch] = useState(name);
  useEffect(() => setSearch(name), [name]);
  const list = useSubjectListQuery({ query: { page, size, sort }, filter: name ? { name } : {} }, { skip: view !== 'list' });
  const grouped = useGroupSubjectsQuery({ pid, page, size }, { skip: view !== 'group' });

  const [creating, setCreating] = useState(false);
  const [transferring, setTransferring] = useState<SubjectRow | null>(null);
  const [reporting, setReporting] = useState<SubjectRow | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [removeOne] = useRemoveSubjectMutation();
  const [removeMany] = useRemoveSubjectsMutation();
  const select = (ids: number[], on: boolean) => setSelected((s) => {
    const next = new Set(s);
    ids.forEach((id) => (on ? next.add(id) : next.delete(id)));
    return next;
  });

  const removal = useConfirmDelete<SubjectRow, number>({
    rowKey: (s) => s.id,
    removeOne: (s) => removeOne(s.id).unwrap(),
    removeMany: (ids) => removeMany(ids).unwrap(),
    texts: { one: (s) => t.confirmDelete(s.name), many: t.confirmBatchDelete, done: SUCCESS_MESSAGES.deleted },
    selection: { drop: (ids) => select([...ids], false) },
    paging: { page, rows: (view === 'list' ? list : grouped).data?.content.length ?? 0, onPage: (p) => set({ page: p }) },
  });

  const table = (rows: SubjectRow[]) => (
    <SubjectTable rows={rows} selected={selected} onSelect={select} onTransfer={setTransferring} onDelete={(row) => removal.ask({ kind: 'one', row })}
      {...(has('report:list') ? { onReport: setReporting } : {})} />
  );
  const emptyAll = (
    <EmptyState title={t.emptyAll} description={t.emptyAllBody} icon="applications"
      action={has('project:list') ? <Button intent="primary" icon="add" text={t.create} onClick={() => setCreating(true)} /> : undefined} />
  );

  const toolbar = (
    <div className="cairn-subject-toolbar">
      <ButtonGroup>
        <Button icon="th-list" text={t.viewList} active={view === 'list'} onClick={() => set({ view: null, page: null })} />
        <Button icon="folder-close" text={t.viewGroup} active={view === 'group'} onClick={() => set({ view: 'group', page: null })} />
      </ButtonGroup>
      {view === 'list' ? (
        <>
          {/* The submitted text is read from the form: a quick type-then-Enter can beat the re-render of `search`. */}
          <form onSubmit={(e) => { e.preventDefault(); set({ name: String(new FormData(e.currentTarget).get('name') ?? '').trim() || null, page: null }); }}>
            <InputGroup name="name" leftIcon="search" placeholder={t.searchPlaceholder} aria-label={t.searchPlaceholder} value={search} onValueChange={setSearch}
              rightElement={search ? <Button minimal icon="cross" aria-label={t.cancel} onClick={() => { setSearch(''); set({ name: null, page: null }); }} /> : undefined} />
          </form>
          <HTMLSelect aria-label={t.sortLabel} value={sort} onChange={(e) => set({ sort: e.currentTarget.value, page: null })}
            options={Object.entries(t.sorts).map(([value, label]) => ({ value, label }))} />
        </>
      ) : null}
      <span className="cairn-grow" />
      {selected.size ? <span className="cairn-muted">{t.selected(selected.size)}</span> : null}
      <Button icon="trash" intent="danger" text={t.batchDelete} disabled={!selected.size} onClick={() => removal.ask({ kind: 'many', keys: [...selected] })} />
      <Button icon="add" intent="primary" text={t.create} onClick={() => setCreating(true)} />
    </div>
  );

  const groupBody = grouped.data ? (
    <>
      <Breadcrumbs className="cairn-subject-crumbs" items={[
        { text: t.root, icon: 'folder-open', onClick: () => set({ pid: null, page: null }) },
        ...grouped.data.path.map((g) => ({ text: g.name, onClick: () => set({ pid: g.id, page: null }) })),
      ]} />
      {grouped.data.groups.length ? (
        <div className="cairn-subject-groups">
          {grouped.data.groups.map((g) => (
            <Card key={g.id} interactive compact className="cairn-subject-group-card" onClick={() => set({ pid: g.id, page: null })}>
              <Icon icon="folder-close" size={20} />
              <div><div className="cairn-subject-name">{g.name}</div><div className="cairn-muted">{t.groupSubjects(g.subjectCount)}</div></div>
            </Card>
          ))}
        </div>
      ) : null}
    </>
  ) : null;

  return (
    <Page title={routeTitle('/project/projectList')} subtitle={t.listSubtitle}
      actions={<Button icon="git-repo" text={t.sources.entry} onClick={() => navigate('/project/repositorySource')} />}>
      {toolbar}
      {view === 'group' ? groupBody : null}
      <PagedListBody
        list={view === 'list' ? list : grouped}
        texts={t}
        filtered={view === 'list' ? !!name : grouped.data ? grouped.data.groups.length > 0 || pid > 0 : false}
        emptyAll={view === 'group' && pid ? <EmptyState title={t.noGroupContent} icon="folder-open" /> : emptyAll}
        page={page}
        size={size}
        onPage={(p) => set({ page: p })}
        onSize={(s) => set({ size: s, page: null })}
        table={table}
      />
      {creating ? <CreateSubjectDialog onClose={() => setCreating(false)} groupId={view === 'group' && pid ? pid : null} /> : null}
      <TransferDialog subject={transferring} onClose={() => setTransferring(null)} />
      <GenerateReportDialog target={reporting ? { variant: 'subject', subjectId: reporting.id, subjectName: reporting.name } : null} onClose={() => setReporting(null)} />
      {removal.element}
    </Page>
  );
}
