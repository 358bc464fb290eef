// A scan document's text as `JSON.stringify(value, null, 2)` writes it, byte for byte, in pieces
// (the CLI writes them to its output file as they come), so the whole text is never held: a
// 43,000-component inventory is a 20-35 MB string, and its UTF-8 copy for the write as much again,
// both at the end of the scan when the heap is fullest. The top levels (the document, its lists)
// come piece by piece; each element of a list is stringified alone and indented to its depth
// (JSON strings hold no raw newline, so indenting every line break of an element is exact).

/** How many levels are written piece by piece (document → list → element); deeper values are stringified whole. */
const STREAMED_LEVELS = 2;
/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
const hasToJson = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === 'function';

/** The text of a value that JSON.stringify writes (not omitted), at `indent`. */
function* pieces(value: unknown, indent: string, level: number): Generator<string> {
  if (level >= STREAMED_LEVELS || typeof value !== 'object' || value === null || hasToJson(value)) {
    const text = JSON.stringify(value, null, 2);
    yield indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) { yield '[]'; return; }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i ? ',' : ''}\n${inner}`;
      const item: unknown = value[i];
      if (omitted(item)) yield 'null';
      else yield* pieces(item, inner, level + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  const members = Object.entries(value).filter(([, v]) => !omitted(v));
  if (!members.length) { yield '{}'; return; }
  yield '{';
  for (let i = 0; i < members.length; i++) {
    const [key, v] = members[i]!;
    yield `${i ? ',' : ''}\n${inner}${JSON.stringify(key)}: `;
    yield* pieces(v, inner, level + 1);
  }
  yield `\n${indent}}`;
}

/** `JSON.stringify(value, null, 2)` in pieces, for a document (an object). */
export function jsonPieces(value: object): Generator<string> {
  return pieces(value, '', 0);
}
