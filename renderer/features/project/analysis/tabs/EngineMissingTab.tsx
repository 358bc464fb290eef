// 代码片段: this version has no code-snippet engine, so the tab says so and describes what the
// engine will report — no placeholder rows.
import { EmptyState } from '../../../../common/states.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';

export function EngineMissingTab() {
  const t = zh.task.snippet;
  return <EmptyState title={t.title} description={t.body} icon="code" />;
}
