// The two remark dialogs the 漏洞 tab and the finding drawer both open on findings: 标记 (an audit
// mark, optionally with a custom level) and 设置 VEX. They send for the given finding ids and
// toast the save; the caller says what to do after it (e.g. clear a selection).
import type { FindingRow } from '../../../../contract/api/result/index.ts';
import { VEX_LABEL, VULNERABILITY_MARK_LABEL, type VexCode, type VulnerabilityMark } from '../../../../contract/enums.ts';
import { useMarkFindingsMutation, useVexMarkMutation } from '../../../api/resultApi.ts';
import { toastNotifier } from '../../../app/toaster.ts';
import { useTaskView } from './context.ts';
import { MarkDialog } from './MarkDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

export type FindingDialog = 'mark' | 'vex' | null;

export function FindingMarkDialogs(props: {
  open: FindingDialog;
  ids: readonly number[];
  /** The codes the dialogs start on. */
  initialMark: string;
  initialVex: string;
  /** The finding's level, when one finding is marked. */
  currentLevel?: number;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { open, ids, initialMark, initialVex, currentLevel, onClose, onSaved } = props;
  const view = useTaskView();
  const [markFindings] = useMarkFindingsMutation();
  const [vexMark] = useVexMarkMutation();
  const saved = () => {
    toastNotifier.success(zh.task.marks.saved);
    onSaved?.();
  };
  return (
    <>
      <MarkDialog
        isOpen={open === 'mark'}
        title={zh.task.bug.markTitle(ids.length)}
        label={zh.task.marks.mark}
        table={VULNERABILITY_MARK_LABEL}
        initial={initialMark}
        withLevel
        currentLevel={currentLevel}
        onClose={onClose}
        onSubmit={async (v) => {
          await markFindings({
            body: {
              projectId: view.projectId,
              taskId: view.run.id,
              ids: [...ids],
              mark: Number(v.code) as VulnerabilityMark,
              remark: v.remark,
              ...(v.customLevel ? { customLevel: v.customLevel as FindingRow['level'], levelRemark: v.levelRemark ?? '' } : {}),
            },
            binary: view.binary,
          }).unwrap();
          saved();
        }}
      />
      <MarkDialog
        isOpen={open === 'vex'}
        title={zh.task.bug.vexTitle(ids.length)}
        label={zh.task.marks.vex}
        table={VEX_LABEL}
        initial={initialVex}
        onClose={onClose}
        onSubmit={async (v) => {
          await vexMark({ projectId: view.projectId, taskId: view.run.id, ids: [...ids], vex: Number(v.code) as VexCode, remark: v.remark }).unwrap();
          saved();
        }}
      />
    </>
  );
}
