// The one mark of something this version does not offer yet (a screen, an analysis mode, a
// setting nothing applies): a small 暂未提供 tag whose tooltip says why.
import { Tag, Tooltip } from '@blueprintjs/core';
import { zh } from '../i18n/zh-CN.ts';

export function NotYetTag({ hint = zh.app.notYetHint }: { hint?: string }) {
  return (
    <Tooltip content={hint} placement="right">
      <Tag minimal round intent="warning" className="cairn-not-yet" title={hint}>
        {zh.app.notYet}
      </Tag>
    </Tooltip>
  );
}
