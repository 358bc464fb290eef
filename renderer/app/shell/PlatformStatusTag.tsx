// 本机平台 运行中 / 启动中 / 已停止 …: the embedded platform's state, live from main.
import { Intent, Spinner, SpinnerSize, Tag, Tooltip } from '@blueprintjs/core';
import type { PlatformStatus } from '../../../contract/ipc/desktop-contract.ts';
import { usePlatformStatusQuery } from '../../api/desktopApi.ts';
import { zh } from '../../i18n/zh-CN.ts';

const platformIntent = (state: PlatformStatus['state'] | undefined): Intent => {
  switch (state) {
    case 'running':
      return Intent.SUCCESS;
    case 'starting':
      return Intent.WARNING;
    case 'crashed':
    case 'failed':
      return Intent.DANGER;
    default:
      return Intent.NONE;
  }
};

const platformStateLabel = (status: PlatformStatus | undefined): string =>
  status ? zh.platform.states[status.state] : zh.platform.unknown;

export function PlatformStatusTag({ minimal = true }: { minimal?: boolean }) {
  const { data, isError } = usePlatformStatusQuery();
  const state = data?.state;
  const label = isError ? zh.platform.unknown : platformStateLabel(data);
  const details = [data?.message, data && data.restarts > 0 ? zh.platform.restarts(data.restarts) : null].filter(Boolean).join('；');
  const tag = (
    <Tag
      minimal={minimal}
      round
      intent={platformIntent(state)}
      icon={state === 'starting' ? <Spinner size={SpinnerSize.SMALL} className="cairn-tag-spinner" /> : state === 'running' ? 'pulse' : 'offline'}
    >
      {zh.platform.label} {label}
    </Tag>
  );
  return details ? <Tooltip content={details}>{tag}</Tooltip> : tag;
}
