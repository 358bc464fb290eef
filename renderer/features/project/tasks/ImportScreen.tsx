// /project/import?subjectId= 批量导入项目: many files dropped at once, each becoming a project of the
// subject — named after its file, its source type guessed from the extension (the local-upload type
// of an SBOM, an Excel list, a manifest, a binary or an archive), both editable per row — then POST
// /api/project/batch/checkAndCreateProject with launch on. The spec's message
// 批量导入项目完成，成功：N个， 失败：M个 follows, with each failure's reason.
import { useState } from 'react';
import { Button, Card, FormGroup, HTMLSelect, HTMLTable, InputGroup, Switch } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import type { BatchResult } from '../../../../contract/api/task.ts';
import { NEW_PROJECT_DEFAULTS, isLocalUploadType } from '../../../../contract/enums.ts';
import { formatFileSize } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { validateProjectName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useSubjectAllQuery } from '../../../api/subjectApi.ts';
import { useProjectImportMutation } from '../../../api/taskApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { BatchOutcome } from './BatchDialogs.tsx';
import { batchImportMessage } from './batchSelection.ts';
import { ProjectUploads } from './ProjectUpload.tsx';
import { SourceTypeOptions } from './SourceTypeOptions.tsx';
import { ALL_UPLOAD_EXTENSIONS, DEFAULT_ANALYSIS_MODES, guessCodeType, joinModes, projectNameFromFile, type UploadedFile } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';
import { ErrorCallout } from '../../../common/states.tsx';

const t = zh.project.importScreen;

interface ImportRow {
  file: UploadedFile;
  projectName: string;
  getCodeType: number | null;
}

export default function ImportScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const subjects = useSubjectAllQuery();
  const [subjectId, setSubjectId] = useState<number | null>(Number(params.get('subjectId')) || null);
  const [rows, setRows] = useState<ImportRow[]>([]);
  const [launch, setLaunch] = useState(true);
  const [result, setResult] = useState<BatchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [save, saving] = useProjectImportMutation();

  const add = (file: UploadedFile) =>
    setRows((prev) => (prev.some((r) => r.file.uploadId === file.uploadId) ? prev : [...prev, { file, projectName: projectNameFromFile(file.fileName), getCodeType: guessCodeType(file.fileName) }]));
  const update = (i: number, patch: Partial<ImportRow>) => setRows((prev) => prev.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const problems = rows.map((r) => validateProjectName(r.projectName) ?? (r.getCodeType === null ? t.unknownType : null));
  const submit = async () => {
    setError(null);
    if (!subjectId) return setError(zh.project.form.subjectRequired);
    if (rows.length === 0) return setError(t.nothing);
    if (problems.some(Boolean)) return setError(zh.project.form.fixErrors);
    const answer = await save({
      subjectId,
      projects: rows.map((r) => ({
        projectName: r.projectName.trim(),
        getCodeType: r.getCodeType ?? 0,
        uploadId: r.file.uploadId,
        analysisModes: joinModes(DEFAULT_ANALYSIS_MODES),
        retentionAudit: NEW_PROJECT_DEFAULTS.retentionAudit,
        enableTiming: false,
        launch,
      })),
    });
    if ('error' in answer) return setError(apiErrorMessage(answer.error));
    setResult(answer.data);
    const message = batchImportMessage(answer.data.successNum, answer.data.failNum);
    if (answer.data.failNum > 0) notify.warning(message);
    else notify.success(message);
  };

  const listUrl = `/project/taskList${subjectId ? `?subjectId=${subjectId}` : ''}`;
  return (
    <Page title={routeTitle('/project/import')} subtitle={t.subtitle}>
      <Card className="cairn-form-card" compact>
        <FormGroup label={t.subject} labelFor="im-subject" inline labelInfo="*">
          <HTMLSelect id="im-subject" value={subjectId ?? ''} disabled={result !== null} onChange={(e) => setSubjectId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}>
            <option value="">{zh.project.form.subjectPlaceholder}</option>
            {(subjects.data ?? []).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </HTMLSelect>
        </FormGroup>
        {result ? null : <ProjectUploads extensions={ALL_UPLOAD_EXTENSIONS} hint={t.dropHint} onUploaded={add} />}
      </Card>
      {rows.length ? (
        <Card className="cairn-table-card">
          <HTMLTable className="cairn-table cairn-vul-table cairn-import-table" striped>
            <thead>
              <tr>
                <th>{t.columns.file}</th>
                <th>{t.columns.name}</th>
                <th>{t.columns.type}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.file.uploadId}>
                  <td>
                    {r.file.fileName}
                    <div className="cairn-muted">{formatFileSize(r.file.size)}</div>
                  </td>
                  <td>
                    <InputGroup
                      aria-label={`${t.columns.name} ${r.file.fileName}`}
                      value={r.projectName}
                      disabled={result !== null}
                      intent={problems[i] && problems[i] !== t.unknownType ? 'danger' : 'none'}
                      onChange={(e) => update(i, { projectName: e.currentTarget.value })}
                    />
                    {problems[i] ? <div className="cairn-text-danger cairn-task-stage">{problems[i]}</div> : null}
                  </td>
                  <td>
                    <HTMLSelect
                      aria-label={`${t.columns.type} ${r.file.fileName}`}
                      value={r.getCodeType ?? ''}
                      disabled={result !== null}
                      onChange={(e) => update(i, { getCodeType: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
                    >
                      <option value="">--</option>
                      <SourceTypeOptions only={isLocalUploadType} marked />
                    </HTMLSelect>
                  </td>
                  <td>
                    {result ? null : <Button small minimal icon="cross" aria-label={t.remove} title={t.remove} onClick={() => setRows(rows.filter((_, j) => j !== i))} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
      ) : null}
      <ErrorCallout message={error} className="cairn-result-callout" />
      {result ? <BatchOutcome result={result} message={batchImportMessage(result.successNum, result.failNum)} /> : null}
      <div className="cairn-form-actions">
        {result ? (
          <Button intent="primary" text={t.openList} onClick={() => navigate(listUrl)} />
        ) : (
          <>
            <Switch className="cairn-import-launch" label={t.launch} checked={launch} onChange={(e) => setLaunch(e.currentTarget.checked)} />
            <Button text={zh.project.form.cancel} onClick={() => navigate(listUrl)} />
            <GuardedButton intent="primary" icon="import" text={t.submit(rows.length)} disabled={rows.length === 0} loading={saving.isLoading} onClick={() => void submit()} />
          </>
        )}
      </div>
    </Page>
  );
}
