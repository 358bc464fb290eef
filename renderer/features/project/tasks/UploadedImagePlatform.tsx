// The 平台 of an uploaded image (本地镜像文件): once the archive is uploaded, the platforms its
// index holds are read by the platform (POST /api/analysis/imageUploadPlatforms, index and
// manifests only) and offered in PlatformSelect; before that, or when they cannot be read (the
// reason shown), the common platforms. The choice is form.registry.platform, as for registries.
import { Callout } from '@blueprintjs/core';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectImageUploadPlatformsQuery } from '../../../api/taskApi.ts';
import { PlatformSelect } from './PlatformSelect.tsx';
import type { FormErrors, ProjectFormState } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;

export function UploadedImagePlatform({ form, errors, onChange }: {
  form: ProjectFormState;
  errors: FormErrors;
  onChange: (next: ProjectFormState) => void;
}) {
  const upload = form.upload;
  // Editing, the project's stored upload is read as the project's (it may be another user's upload).
  const stored = Boolean(upload && form.stored && form.stored.uploadId === upload.uploadId);
  const found = useProjectImageUploadPlatformsQuery(
    { getCodeType: form.getCodeType, uploadId: upload?.uploadId ?? '', ...(stored && form.stored && { projectId: form.stored.projectId }) },
    { skip: !upload },
  );
  const offered = upload && found.data && !found.isFetching ? found.data.platforms : null;
  const help = !upload ? t.imageUploadPlatformsBefore : found.isFetching ? t.imageUploadPlatformsReading : offered ? t.imageUploadPlatforms(offered) : undefined;
  const set = (platform: string) => onChange({ ...form, registry: { ...form.registry, platform } });
  return (
    <div className="cairn-upload-platform">
      <PlatformSelect value={form.registry.platform} error={errors.imagePlatform} offered={offered} helperText={help} onChange={set} />
      {upload && found.error && !found.isFetching ? (
        <Callout intent="danger" compact role="alert">{t.imageUploadPlatformsFailed(apiErrorMessage(found.error))}</Callout>
      ) : null}
    </div>
  );
}
