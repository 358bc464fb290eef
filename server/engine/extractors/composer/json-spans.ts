// Line spans of the objects of one JSON array, found by a single pass over the text (strings and
// escapes respected), so components can point at the lines that declare them without a full
// position-tracking parser.

export interface Span { start: number; end: number }

/**
 * Spans of the objects directly inside the array at `key` of the root object, or inside the root
 * array when `key` is null. Spans come in document order, one per object element.
 */
export function arrayObjectSpans(text: string, key: string | null): Span[] {
  const spans: Span[] = [];
  let line = 1;
  let depth = 0;
  // Depth at which the wanted array's elements live, once the array is entered.
  let elementDepth = key === null ? 1 : -1;
  let lastString: string | null = null;
  let lastStringDepth = -1;
  let awaitingArray = false;
  let open: Span | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) { line++; continue; }
    if (ch === 34) {
      // A string: find its end, remember it when it could be a key of the root object.
      let j = i + 1;
      let hasEscape = false;
      while (j < text.length) {
        const c = text.charCodeAt(j);
        if (c === 92) { hasEscape = true; j += 2; continue; }
        if (c === 34) break;
        if (c === 10) line++;
        j++;
      }
      if (depth === 1 && key !== null && elementDepth < 0) {
        const raw = text.slice(i + 1, j);
        lastString = hasEscape ? safeUnescape(raw) : raw;
        lastStringDepth = depth;
      } else {
        lastString = null;
      }
      i = j;
      continue;
    }
    if (ch === 58) { // ':'
      awaitingArray = key !== null && elementDepth < 0 && lastStringDepth === 1 && lastString === key;
      continue;
    }
    if (ch === 123 || ch === 91) { // '{' '['
      if (ch === 91 && awaitingArray && depth === 1) elementDepth = 2;
      awaitingArray = false;
      depth++;
      if (ch === 123 && depth === elementDepth + 1 && elementDepth > 0) {
        open = { start: line, end: line };
      }
      continue;
    }
    if (ch === 125 || ch === 93) { // '}' ']'
      if (ch === 125 && open && depth === elementDepth + 1) {
        open.end = line;
        spans.push(open);
        open = undefined;
      }
      depth--;
      if (ch === 93 && key !== null && depth === 1 && elementDepth === 2) elementDepth = -2; // array done
      continue;
    }
    if (ch !== 32 && ch !== 9 && ch !== 13 && ch !== 44) awaitingArray = false;
  }
  return spans;
}

function safeUnescape(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
