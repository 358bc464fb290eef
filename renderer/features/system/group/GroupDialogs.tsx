// The group commands' dialogs: a new top-level or child group and a rename (one name field, the
// name rule plus no '/'; a sibling's name is refused by the platform beside the field), and a move
// (the target parent among every group but the group itself and those below it, or the top level).
import { FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { GROUP_MOVED_MESSAGE, GROUP_PATH_SEPARATOR, type GroupDetail } from '../../../../contract/api/group.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { NAME_MAX_LENGTH, validateName } from '../../../../contract/validation.ts';
import { useAddChildGroupMutation, useAddRootGroupMutation, useAllGroupsQuery, useMoveGroupMutation, useRenameGroupMutation } from '../../../api/groupApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.group;

const validateGroupName = (name: string): string | null =>
  validateName(name) ?? (name.includes(GROUP_PATH_SEPARATOR) ? t.slash : null);
const validate = validateFields<{ name: string }>({ name: validateGroupName });

/** mode root: a top-level group; child: under `group`; rename: `group` itself. */
export type NameDialogMode = { mode: 'root' } | { mode: 'child'; group: GroupDetail } | { mode: 'rename'; group: GroupDetail };

export function GroupNameDialog({ target, onClose, onDone }: { target: NameDialogMode; onClose: () => void; onDone?: (group: GroupDetail) => void }) {
  const [addRoot] = useAddRootGroupMutation();
  const [addChild] = useAddChildGroupMutation();
  const [rename] = useRenameGroupMutation();
  const title = target.mode === 'root' ? t.addRootTitle : target.mode === 'child' ? t.addChildTitle(target.group.groupPath) : t.renameTitle(target.group.groupPath);
  const submit = async ({ name }: { name: string }) => {
    const done = target.mode === 'root'
      ? await addRoot({ name }).unwrap()
      : target.mode === 'child'
        ? await addChild({ pid: target.group.id, name }).unwrap()
        : await rename({ params: { id: target.group.id }, body: { name } }).unwrap();
    onDone?.(done);
  };
  return (
    <FormDialog<{ name: string }>
      title={title}
      icon={target.mode === 'rename' ? 'edit' : 'folder-new'}
      idPrefix="group"
      onClose={onClose}
      initial={{ name: target.mode === 'rename' ? target.group.name : '' }}
      validate={validate}
      submit={submit}
      success={target.mode === 'rename' ? ADMIN_SUCCESS_MESSAGES.modified : ADMIN_SUCCESS_MESSAGES.added}
      fields={['name']}
    >
      {(form) => (
        <FormGroup label={t.name} labelFor={form.id('name')} labelInfo="*" {...form.group('name', t.nameHelp)}>
          <InputGroup
            id={form.id('name')}
            intent={form.intent('name')}
            value={form.values.name}
            placeholder={t.namePlaceholder}
            maxLength={NAME_MAX_LENGTH}
            autoFocus
            onValueChange={(v) => form.set('name', v)}
          />
        </FormGroup>
      )}
    </FormDialog>
  );
}

const TOP = '';

export function MoveGroupDialog({ group, onClose }: { group: GroupDetail; onClose: () => void }) {
  const all = useAllGroupsQuery();
  const [move] = useMoveGroupMutation();
  // Not the group itself nor anything below it (paths are unique, so a prefix names the subtree).
  const targets = (all.data ?? []).filter((g) => g.id !== group.id && !g.groupPath.startsWith(`${group.groupPath}${GROUP_PATH_SEPARATOR}`));
  const initial = all.data ? { pid: group.pid === null ? TOP : String(group.pid) } : undefined;
  return (
    <FormDialog<{ pid: string }>
      title={t.moveTitle(group.groupPath)}
      icon="move"
      idPrefix="group-move"
      onClose={onClose}
      initial={initial}
      submit={({ pid }) => move({ id: group.id, pid: pid === TOP ? null : Number(pid) }).unwrap()}
      success={GROUP_MOVED_MESSAGE}
      fields={['pid']}
    >
      {(form) => (
        <FormGroup label={t.moveTarget} labelFor={form.id('pid')} {...form.group('pid', t.moveHelp)}>
          <HTMLSelect
            id={form.id('pid')}
            fill
            value={form.values.pid}
            onChange={(e) => form.set('pid', e.currentTarget.value)}
            options={[{ value: TOP, label: t.moveToTop }, ...targets.map((g) => ({ value: String(g.id), label: g.groupPath }))]}
          />
        </FormGroup>
      )}
    </FormDialog>
  );
}
