// PHP's serialize() format, as PEAR writes its registry: `a:2:{s:4:"name";s:3:"Foo";i:0;b:1;}`.
// String lengths count bytes, so the text is read as bytes. Arrays come back as Maps (keys in
// order, integer keys as numbers); objects (`O:`) as their property maps.

export type PhpValue = string | number | boolean | null | Map<string | number, PhpValue>;

export class PhpSerializeError extends Error {}

export function unserializePhp(bytes: Uint8Array): PhpValue {
  let pos = 0;
  const decoder = new TextDecoder('utf-8');
  const fail = (what: string): never => { throw new PhpSerializeError(`第 ${pos} 字节处${what}`); };
  const expect = (ch: string) => {
    if (bytes[pos] !== ch.charCodeAt(0)) fail(`应为 ${ch}`);
    pos++;
  };
  const readUntil = (ch: string): string => {
    const end = bytes.indexOf(ch.charCodeAt(0), pos);
    if (end < 0) fail(`缺少 ${ch}`);
    const text = decoder.decode(bytes.subarray(pos, end));
    pos = end + 1;
    return text;
  };
  const readLength = (): number => {
    const text = readUntil(':');
    if (!/^\d+$/.test(text)) fail('的长度不是数字');
    return Number(text);
  };
  const readString = (): string => {
    const length = readLength();
    expect('"');
    if (pos + length > bytes.length) fail('的字符串超出文件末尾');
    const text = decoder.decode(bytes.subarray(pos, pos + length));
    pos += length;
    expect('"');
    return text;
  };
  const readEntries = (count: number): Map<string | number, PhpValue> => {
    expect('{');
    const map = new Map<string | number, PhpValue>();
    for (let i = 0; i < count; i++) {
      const key = value();
      if (typeof key !== 'string' && typeof key !== 'number') fail('的数组键不是字符串或整数');
      map.set(key as string | number, value());
    }
    expect('}');
    return map;
  };
  function value(): PhpValue {
    const type = String.fromCharCode(bytes[pos] ?? 0);
    pos++;
    switch (type) {
      case 'N': expect(';'); return null;
      case 'b': { expect(':'); const v = readUntil(';'); return v === '1'; }
      case 'i': { expect(':'); const v = readUntil(';'); if (!/^[-+]?\d+$/.test(v)) fail('的整数无效'); return Number(v); }
      case 'd': { expect(':'); const v = readUntil(';'); return Number(v); }
      case 's': { expect(':'); const v = readString(); expect(';'); return v; }
      case 'a': { expect(':'); const n = readLength(); return readEntries(n); }
      case 'O': { expect(':'); readString(); expect(':'); const n = readLength(); return readEntries(n); }
      default: return fail(`有无法识别的类型 ${JSON.stringify(type)}`);
    }
  }
  const result = value();
  return result;
}

/** `map.get(a).get(b)...`, undefined where a step is missing or not an array. */
export function phpGet(value: PhpValue | undefined, ...keys: Array<string | number>): PhpValue | undefined {
  let current = value;
  for (const key of keys) {
    if (!(current instanceof Map)) return undefined;
    current = current.get(key);
  }
  return current;
}

/** A PEAR list that is one entry or an array of entries (`i:0`, `i:1`, ...). */
export function phpList(value: PhpValue | undefined): PhpValue[] {
  if (!(value instanceof Map)) return [];
  const keys = [...value.keys()];
  return keys.length > 0 && keys.every((k) => typeof k === 'number') ? [...value.values()] : [value];
}
