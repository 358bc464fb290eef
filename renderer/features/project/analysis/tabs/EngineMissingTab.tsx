// 代码片段 and 敏感信息: this version has no code-snippet or sensitive-information engine, so the
// tabs say so and describe what the engines will report — no placeholder rows.
import { EmptyState } from '../../../../common/states.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';

export function EngineMissingTab({ kind }: { kind: 'snippet' | 'sensitive' }) {
  const t = kind === 'snippet' ? zh.task.snippet : zh.task.sensitive;
  return <EmptyState title={t.title} description={t.body} icon={kind === 'snippet' ? 'code' : 'key'} />;
}
