// 数据转移: hand the subject to another user (POST /api/subject/transfer, 转移成功！).
import { Card } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { DASH } from '../../../../contract/enums.ts';
import { Field } from '../../../common/Field.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout } from './SettingsLayout.tsx';
import { TransferForm } from './TransferForm.tsx';

const t = zh.subject;

export default function DataTransferScreen() {
  const navigate = useNavigate();
  return (
    <SettingsLayout tab="dataTransfer">
      {(s) => (
        <Card className="cairn-settings-form">
          <p className="cairn-muted">{t.transferTabHint}</p>
          <Field label={t.currentOwner}>{s.ownerName ?? DASH}</Field>
          {s.canManage ? <TransferForm subjectId={s.id} ownerId={s.ownerId} onDone={() => navigate(`/project/projectSettings/basicSetup?subjectId=${s.id}`)} /> : null}
        </Card>
      )}
    </SettingsLayout>
  );
}
