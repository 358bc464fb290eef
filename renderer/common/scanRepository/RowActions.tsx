// The actions of a repository row, the same on the system screen and an 应用's panel: edit,
// switch on or off, remove (each named with the repository for screen readers).
import { Button, ButtonGroup, Tooltip } from '@blueprintjs/core';
import type { ScanRepositoryRow } from '../../../contract/api/scan-config.ts';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.system.scanConfig;

export function ScanRepositoryRowActions({ row, onEdit, onToggle, onRemove }: {
  row: ScanRepositoryRow;
  onEdit: () => void;
  onToggle: () => void;
  onRemove: () => void;
}) {
  return (
    <ButtonGroup variant="minimal">
      <Tooltip content={zh.list.edit}><Button icon="edit" aria-label={`${zh.list.edit} ${row.name}`} onClick={onEdit} /></Tooltip>
      <Tooltip content={row.enabled ? t.off : t.on}>
        <Button icon={row.enabled ? 'disable' : 'tick-circle'} aria-label={`${row.enabled ? t.off : t.on} ${row.name}`} onClick={onToggle} />
      </Tooltip>
      <Tooltip content={zh.list.remove}><Button icon="trash" intent="danger" aria-label={`${zh.list.remove} ${row.name}`} onClick={onRemove} /></Tooltip>
    </ButtonGroup>
  );
}
