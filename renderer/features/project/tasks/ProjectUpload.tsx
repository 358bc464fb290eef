// The file input of a local-upload project: the shared drop zone (renderer/common/UploadDropZone)
// filtered to the type's extensions, and what was uploaded. Source archives and feature files
// also take a dropped folder (zipped before upload).
import { Icon } from '@blueprintjs/core';
import { formatFileSize } from '../../../../contract/format.ts';
import { UploadDropZone } from '../../../common/UploadDropZone.tsx';
import type { UploadedFile } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.project.form;
const FOLDER_TYPES: readonly number[] = [0, 9];

export function ProjectUpload({ code, extensions, value, current, onChange }: {
  code: number;
  extensions: readonly string[];
  value: UploadedFile | null;
  /** The value is the edited project's stored input (not a file just dropped). */
  current?: boolean;
  onChange: (file: UploadedFile | null) => void;
}) {
  return (
    <div className="cairn-project-upload">
      <UploadDropZone accept={[...extensions]} folders={FOLDER_TYPES.includes(code)} label={t.upload} onUploaded={onChange} />
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
