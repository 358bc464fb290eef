// Chinese renderings of schema validator messages (xmllint's are English).

/** Translates the common libxml2 XSD messages; anything else keeps its original text after a Chinese lead. */
export function zhXmlSchemaMessage(message: string): string {
  const text = message.trim().replace(/^Schemas (?:validity|parser) error\s*:\s*/, '');
  const element = /^Element '([^']+)'(?:, attribute '([^']+)')?: (.*)$/s.exec(text);
  if (!element) return text;
  const where = `元素 ${shortName(element[1]!)}${element[2] ? ` 的属性 ${element[2]}` : ''}`;
  const rest = element[3]!;
  let m: RegExpExecArray | null;
  if ((m = /\[facet 'enumeration'\] The value '([^']*)' is not an element of the set \{(.*)\}/.exec(rest))) {
    return `${where} 的值 '${m[1]}' 必须是以下值之一：${listOf(m[2]!.replace(/'/g, '').split(', '))}`;
  }
  if ((m = /\[facet 'pattern'\] The value '([^']*)' is not accepted by the pattern '([^']*)'/.exec(rest))) {
    return `${where} 的值 '${m[1]}' 不符合格式 ${m[2]}`;
  }
  if ((m = /This element is not expected\.(?: Expected is(?: one of)? \( ?(.*?) ?\))?/.exec(rest))) {
    return `${where} 不应出现在此处${m[1] ? `（应为 ${m[1].split(', ').map(shortName).join('、')}）` : ''}`;
  }
  if ((m = /Missing child element\(s\)\. Expected is(?: one of)? \( ?(.*?) ?\)/.exec(rest))) {
    return `${where} 缺少子元素 ${m[1]!.split(', ').map(shortName).join('、')}`;
  }
  if ((m = /The attribute '([^']*)' is required but missing/.exec(rest))) {
    return `${where} 缺少必填属性 ${m[1]}`;
  }
  if (/No matching global declaration available for the validation root/.test(rest)) {
    return `${where} 不是该版本规范定义的根元素（命名空间不正确）`;
  }
  if ((m = /'([^']*)' is not a valid value of the (?:atomic|local|union|list)? ?type '([^']*)'/.exec(rest))) {
    return `${where} 的值 '${m[1]}' 不是有效的 ${shortName(m[2]!)}`;
  }
  if (/The attribute '([^']*)' is not allowed/.test(rest)) return `${where} 不允许出现`;
  if ((m = /\[facet '(minLength|maxLength|length)'\] The value '([^']*)'/.exec(rest))) {
    return `${where} 的值 '${m[2]}' 长度不符合要求（${m[1]}）`;
  }
  if (/Duplicate key-sequence|not unique/i.test(rest)) return `${where} 存在重复的值：${rest}`;
  return `${where}：${rest}`;
}

function shortName(name: string): string {
  return name.replace(/^\{[^}]*\}/, '');
}

/** A readable list: long enumerations (licence ids) are cut after a dozen values. */
export function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map(String).join('、');
  return values.length > 12 ? `${shown} 等 ${values.length} 个值` : shown;
}
