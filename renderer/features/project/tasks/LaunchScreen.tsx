// /project/analysis/launch?projectId= 发起任务: an existing project's settings (GET
// /api/project/{projectId}), edited and launched again with PUT /api/analysis (taskId = the project
// id). Every source field and the timing are prefilled; passwords are write-only, so their inputs
// start empty and an empty one keeps the stored password. sshType follows the editing rule (spec §4).
// A source type the platform cannot analyse yet is said up front (the form's notice) and its
// settings are only saved (PATCH /api/project/{projectId}, 仅保存修改), then the task list opens.
// focus=outboundLicense puts the 出站许可证 field in view and focuses it.
import { useEffect, useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import { LAUNCH_SUCCESS } from '../../../../contract/api/task.ts';
import { isLocalUploadType } from '../../../../contract/enums.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { unsupportedSource } from '../../../../contract/sources.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectFormQuery, useProjectRelaunchMutation, useProjectUpdateMutation } from '../../../api/taskApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState, ErrorCallout } from '../../../common/states.tsx';
import { errorsStillStanding, messageAfterChange } from '../../../common/form/formErrors.ts';
import { fieldLabel } from './NewProjectScreen.tsx';
import { ProjectFormView } from './ProjectFormView.tsx';
import { buildBody, formFromProject, validateForm, type FormErrors, type ProjectFormState } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.project;

export default function LaunchScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const projectId = Number(params.get('projectId')) || 0;
  // Always read afresh: the form must start from what is stored now, not from a cached answer.
  const stored = useProjectFormQuery(projectId, { skip: !projectId, refetchOnMountOrArgChange: true });

  const [form, setForm] = useState<ProjectFormState | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [relaunch, launching] = useProjectRelaunchMutation();
  const [update, updating] = useProjectUpdateMutation();

  useEffect(() => {
    if (form || !stored.data || stored.isFetching) return;
    setForm(formFromProject(stored.data));
  }, [stored.data, stored.isFetching, form]);

  // Opened to set the outbound licence (the licence-conflict tab's 前往项目设置): that field, in view.
  const focus = params.get('focus');
  const ready = Boolean(form);
  useEffect(() => {
    if (!ready || focus !== 'outboundLicense') return;
    const field = document.getElementById('pf-outbound');
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  }, [ready, focus]);

  const title = routeTitle('/project/analysis/launch');
  if (!projectId) {
    return (
      <Page title={title}>
        <EmptyState title={t.edit.missing} icon="edit" action={<Button text={t.batch.backToList} onClick={() => navigate('/project/taskList')} />} />
      </Page>
    );
  }
  if (stored.isError) return <Page title={title}><ErrorState title={t.edit.loadFailed} message={apiErrorMessage(stored.error)} onRetry={() => void stored.refetch()} /></Page>;
  const project = stored.data;
  if (!project || !form) return <Page title={title}><LoadingState /></Page>;

  const saveOnly = unsupportedSource(form.getCodeType) !== null;
  const listUrl = `/project/taskList?subjectId=${project.subjectId}`;
  // an error goes once its cause is fixed: shown field errors are checked again on every change
  const change = (next: ProjectFormState) => {
    setForm(next);
    const standing = errorsStillStanding(errors, validateForm(next, fieldLabel, true));
    setErrors(standing);
    setFailure((message) => messageAfterChange(message, t.form.fixErrors, standing));
  };
  const submit = async () => {
    const found = validateForm(form, fieldLabel, true);
    setErrors(found);
    if (Object.keys(found).length) {
      setFailure(t.form.fixErrors);
      return;
    }
    setFailure(null);
    // The subject is fixed; the timing is sent always (the form started from the stored one).
    const { subjectId: _subject, ...body } = buildBody(form, { editing: true });
    if (saveOnly) {
      const saved = await update({ projectId, body });
      if ('error' in saved) {
        setFailure(apiErrorMessage(saved.error));
        return;
      }
      notify.success(t.saved);
      navigate(listUrl);
      return;
    }
    const answer = await relaunch({ ...body, taskId: projectId });
    if ('error' in answer) {
      setFailure(apiErrorMessage(answer.error));
      return;
    }
    if (answer.data.message === LAUNCH_SUCCESS) {
      notify.success(t.launchSuccess);
      navigate(`/project/analysis/details?projectId=${projectId}`);
    } else {
      notify.warning(answer.data.message || t.form.notLaunched);
      navigate(listUrl);
    }
  };

  const timingNote = project.timing.enableTiming && project.nextRunAt ? t.list.timingNext(formatDateTime(project.nextRunAt)) : null;
  const keepsUpload = isLocalUploadType(form.getCodeType) && form.upload !== null && form.upload.uploadId === form.stored?.uploadId;
  return (
    <Page title={`${title} · ${project.projectName}`} subtitle={<>{t.edit.subtitle}{timingNote ? ` · ${timingNote}` : ''}</>}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <ProjectFormView form={form} errors={errors} editing onChange={change} uploadNote={keepsUpload ? t.edit.replaceUpload : undefined} />
        <ErrorCallout message={failure} className="cairn-form-callout" />
        <div className="cairn-form-actions">
          <Button text={t.form.cancel} onClick={() => navigate(-1)} />
          <GuardedButton
            type="submit"
            intent="primary"
            icon={saveOnly ? 'floppy-disk' : 'refresh'}
            text={saveOnly ? t.form.submitSaveEdit : t.form.submitEdit}
            loading={launching.isLoading || updating.isLoading}
          />
        </div>
      </form>
    </Page>
  );
}
