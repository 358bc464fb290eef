// Turns schema validation errors (TypeBox, ajv-shaped) into one Chinese sentence naming the field.
import type { FastifyError, FastifySchemaValidationError } from 'fastify';

type SchemaErrorDataVar = FastifyError['validationContext'];

const PART: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };
const TYPE: Record<string, string> = {
  string: '字符串', integer: '整数', number: '数字', boolean: '布尔值', object: '对象', array: '数组', null: '空值',
};

/** `/items/0/name` -> `items[0].name`. */
const fieldName = (instancePath: string) =>
  instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');

function describe(error: FastifySchemaValidationError, part: string): string {
  const params = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath);
  const subject = field ? `${part}字段 ${field} ` : part;
  const limit = params.limit;
  switch (error.keyword) {
    case 'required': {
      const names = (params.requiredProperties ?? [params.missingProperty]) as string[];
      return `${subject}缺少必填字段 ${names.join('、')}`;
    }
    case 'type': {
      const expected = String(params.type);
      if (!field && expected === 'object') return `${part}缺失或不是 JSON 对象`;
      return `${subject}应为${TYPE[expected] ?? expected}`;
    }
    case 'minLength': return `${subject}长度不能少于 ${limit} 个字符`;
    case 'maxLength': return `${subject}长度不能超过 ${limit} 个字符`;
    case 'minimum': return `${subject}不能小于 ${limit}`;
    case 'maximum': return `${subject}不能大于 ${limit}`;
    case 'exclusiveMinimum': return `${subject}必须大于 ${limit}`;
    case 'exclusiveMaximum': return `${subject}必须小于 ${limit}`;
    case 'minItems': return `${subject}至少需要 ${limit} 项`;
    case 'maxItems': return `${subject}最多 ${limit} 项`;
    case 'pattern':
    case 'format': return `${subject}格式不正确`;
    case 'additionalProperties': return `${subject}包含不允许的字段`;
    default: return `${subject}取值无效`;
  }
}

/** A union reports each failed branch and then itself; only the union's verdict helps the user. */
function withoutUnionBranches(errors: FastifySchemaValidationError[]): FastifySchemaValidationError[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/${e.keyword}/`);
  return errors.filter((e) => !unions.some((prefix) => e.schemaPath.startsWith(prefix)));
}

export function validationMessage(errors: FastifySchemaValidationError[], context: SchemaErrorDataVar | undefined): string {
  const part = PART[context ?? 'body'] ?? '请求';
  const sentences = [...new Set(withoutUnionBranches(errors).map((e) => describe(e, part)))];
  return sentences.slice(0, 3).join('；');
}
