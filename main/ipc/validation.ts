// TypeBox validation errors in Chinese, for payloads the renderer sends over IPC. Written here
// rather than by switching TypeBox's global locale, which would change messages process-wide.
import type { TLocalizedValidationError } from 'typebox/error';

const TYPE_NAMES: Record<string, string> = {
  string: '字符串', number: '数字', integer: '整数', boolean: '布尔值', object: '对象', array: '数组', null: '空值',
};

const field = (instancePath: string): string => instancePath.replace(/^\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');

function reason(error: TLocalizedValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `缺少必填字段 ${(params.requiredProperties as string[] | undefined)?.join('、') ?? ''}`.trim();
    case 'type': {
      const types = ([] as unknown[]).concat(params.type).map((t) => TYPE_NAMES[String(t)] ?? String(t));
      return `类型应为${types.join('或')}`;
    }
    case 'minLength':
      return params.limit === 1 ? '不能为空' : `长度不能少于 ${String(params.limit)} 个字符`;
    case 'maxLength':
      return `长度不能超过 ${String(params.limit)} 个字符`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `不能小于${error.keyword === 'exclusiveMinimum' ? '或等于' : ''} ${String(params.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `不能大于${error.keyword === 'exclusiveMaximum' ? '或等于' : ''} ${String(params.limit)}`;
    case 'minItems':
      return `至少需要 ${String(params.limit)} 项`;
    case 'maxItems':
      return `不能超过 ${String(params.limit)} 项`;
    case 'pattern':
    case 'format':
      return '格式不正确';
    case 'additionalProperties':
      return `不允许的字段 ${(params.additionalProperties as string[] | undefined)?.join('、') ?? ''}`.trim();
    default:
      return '取值无效';
  }
}

/** `参数无效：name 不能为空；url 类型应为字符串` (at most three problems). */
export function describeValidationErrors(errors: TLocalizedValidationError[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const error of errors) {
    const where = field(error.instancePath);
    const text = where ? `${where} ${reason(error)}` : reason(error);
    if (seen.has(text)) continue;
    seen.add(text);
    parts.push(text);
    if (parts.length === 3) break;
  }
  return `参数无效：${parts.join('；') || '请求参数格式不正确'}`;
}
