// /project/newProject?subjectId= 新建项目: the project form with the spec's defaults; 保存并发起分析
// posts POST /api/analysis. 任务发起成功！ only when the platform answers SUCCESS (spec §8), then the
// task details; a refused launch saves nothing, and its message stays on the form. A source type
// the platform cannot analyse yet is said up front: the form shows why and the button only saves
// (仅保存项目: the same call with `launch: false`), then the task list opens.
import { useState } from 'react';
import { Button } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import { LAUNCH_SUCCESS } from '../../../../contract/api/task.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { unsupportedSource } from '../../../../contract/sources.ts';
import { useProjectLaunchMutation, useProjectQuotaQuery } from '../../../api/taskApi.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { readItem, writeItem } from '../../../app/storage.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { ProjectFormView } from './ProjectFormView.tsx';
import { LAST_CODE_TYPE_KEY, buildBody, initialForm, validateForm, type FormErrors, type ProjectFormState, type TextField } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';
import { ErrorCallout } from '../../../common/states.tsx';
import { errorsStillStanding, messageAfterChange } from '../../../common/form/formErrors.ts';

const t = zh.project.form;
export const fieldLabel = (f: TextField): string => zh.project.fields[f] ?? f;

const positiveId = (raw: string | null): number | null => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export default function NewProjectScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const subjectParam = positiveId(params.get('subjectId'));
  const [form, setForm] = useState(() => initialForm({ subjectId: subjectParam, lastCodeType: readItem(LAST_CODE_TYPE_KEY) }));
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [launch, launching] = useProjectLaunchMutation();
  const quota = useProjectQuotaQuery();

  const saveOnly = unsupportedSource(form.getCodeType) !== null;
  const listUrl = (subjectId: number | null) => `/project/taskList${subjectId ? `?subjectId=${subjectId}` : ''}`;

  // an error goes once its cause is fixed: shown field errors are checked again on every change
  const change = (next: ProjectFormState) => {
    setForm(next);
    const standing = errorsStillStanding(errors, validateForm(next, fieldLabel));
    setErrors(standing);
    setFailure((message) => messageAfterChange(message, t.fixErrors, standing));
  };
  const submit = async () => {
    const found = validateForm(form, fieldLabel);
    setErrors(found);
    if (Object.keys(found).length) {
      setFailure(t.fixErrors);
      return;
    }
    setFailure(null);
    const result = await launch({ ...buildBody(form), ...(saveOnly && { launch: false }) });
    if ('error' in result) {
      setFailure(apiErrorMessage(result.error));
      return;
    }
    const { projectId, message } = result.data;
    if (message === LAUNCH_SUCCESS) {
      notify.success(zh.project.launchSuccess);
      navigate(`/project/analysis/details?projectId=${projectId}`);
    } else {
      if (saveOnly) notify.success(message || zh.project.saved);
      else notify.warning(message || t.notLaunched);
      navigate(listUrl(form.subjectId));
    }
  };

  const q = quota.data;
  return (
    <Page
      title={routeTitle('/project/newProject')}
      subtitle={q ? t.quota(q.used, q.limit) : undefined}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <ProjectFormView
          form={form}
          errors={errors}
          editing={false}
          onChange={change}
          onCodeTypeChosen={(code) => writeItem(LAST_CODE_TYPE_KEY, String(code))}
        />
        <ErrorCallout message={failure} className="cairn-form-callout" />
        <div className="cairn-form-actions">
          <Button text={t.cancel} onClick={() => navigate(listUrl(form.subjectId))} />
          <GuardedButton type="submit" intent="primary" icon={saveOnly ? 'floppy-disk' : 'play'} text={saveOnly ? t.submitSaveOnly : t.submitNew} loading={launching.isLoading} />
        </div>
      </form>
    </Page>
  );
}
