// The file input of a local-upload project: the shared drop zone (renderer/common/UploadDropZone)
// filtered to the type's extensions, and what was uploaded. Types whose table row says so (source
// archives) also take a dropped folder, zipped before upload; a feature file's (特征文件) is given as
// a folder the desktop turns into its feature file (生成特征文件), so the source stays on the machine;
// an image feature file's (镜像特征文件) as an image file or OCI folder it turns into one the same way.
import { useState } from 'react';
import { FormGroup, HTMLSelect, Icon } from '@blueprintjs/core';
import { COMMON_IMAGE_PLATFORMS } from '../../../../contract/enums.ts';
import { formatFileSize } from '../../../../contract/format.ts';
import { UploadDropZone } from '../../../common/UploadDropZone.tsx';
import type { UploadFiles } from '../../../../contract/sources.ts';
import type { UploadedFile } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;

export function ProjectUpload({ files, value, current, onChange }: {
  /** The files the source type takes (contract/sources.ts). */
  files: UploadFiles;
  value: UploadedFile | null;
  /** The value is the edited project's stored input (not a file just dropped). */
  current?: boolean;
  onChange: (file: UploadedFile | null) => void;
}) {
  // 镜像特征文件: the platform of a multi-platform image the desktop writes the feature file for.
  const [platform, setPlatform] = useState('');
  return (
    <div className="cairn-project-upload">
      {files.imageFeature ? (
        <FormGroup label={t.imageFeaturePlatform} labelFor="image-feature-platform" helperText={t.imageFeaturePlatformHelp} inline>
          <HTMLSelect
            id="image-feature-platform"
            value={platform}
            options={[{ value: '', label: t.imageFeaturePlatformDefault }, ...COMMON_IMAGE_PLATFORMS.map((p) => ({ value: p, label: p }))]}
            onChange={(e) => setPlatform(e.currentTarget.value)}
          />
        </FormGroup>
      ) : null}
      <UploadDropZone accept={[...files.extensions]} folders={files.folders} imageFeature={files.imageFeature} imagePlatform={platform || undefined} label={t.upload} onUploaded={onChange} />
      {value ? (
        <div className="cairn-upload-done" role="status">
          <Icon icon={current ? 'document' : 'tick-circle'} intent={current ? 'none' : 'success'} />
          <span>{(current ? zh.project.edit.currentUpload : t.uploadDone)(value.fileName, formatFileSize(value.size))}</span>
        </div>
      ) : null}
    </div>
  );
}

/** Many files at once (batch import): each completed upload is handed over as it finishes. */
export function ProjectUploads({ extensions, hint, onUploaded }: {
  extensions: readonly string[];
  hint: string;
  onUploaded: (file: UploadedFile) => void;
}) {
  return (
    <div className="cairn-project-upload">
      <div className="cairn-muted cairn-form-note">{hint}</div>
      <UploadDropZone accept={[...extensions]} multiple label={t.upload} onUploaded={onUploaded} />
    </div>
  );
}
