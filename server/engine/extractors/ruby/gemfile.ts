// The groups of each gem a Gemfile declares, read from its plain structure (`group ... do` blocks
// and `group:`/`groups:` options), without evaluating Ruby. A gem counts as development when
// every declaration of it sits only in development/test groups.

const DEV_GROUPS = new Set(['development', 'test']);

export interface GemGroups { groups: Set<string>; dev: boolean }

function symbols(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/:(\w+)|["'](\w+)["']/g)) out.push(m[1] ?? m[2]!);
  return out;
}

/** Removes a trailing `# comment` that is not inside a string. */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#') {
      return line.slice(0, i);
    }
  }
  return line;
}

export function parseGemfileGroups(text: string): Map<string, GemGroups> {
  const result = new Map<string, GemGroups>();
  const stack: string[][] = [];
  const addGem = (line: string): boolean => {
    const gem = /^gem\s*\(?\s*["']([^"']+)["'](.*)$/.exec(line);
    if (!gem) return false;
    const inline: string[] = [];
    const opt = /(?:\bgroups?:|:groups?\s*=>)\s*(\[[^\]]*\]|%[iw][[({][^\])}]*[\])}]|:\w+|["']\w+["'])/.exec(gem[2]!);
    if (opt) {
      const v = opt[1]!;
      inline.push(...(v.startsWith('%') ? v.slice(3, -1).trim().split(/\s+/) : symbols(v)));
    }
    const groups = new Set([...stack.flat(), ...inline]);
    if (groups.size === 0) groups.add('default');
    const dev = [...groups].every((g) => DEV_GROUPS.has(g));
    const seen = result.get(gem[1]!);
    if (seen) {
      for (const g of groups) seen.groups.add(g);
      seen.dev &&= dev;
    } else {
      result.set(gem[1]!, { groups, dev });
    }
    return true;
  };
  for (const raw of text.split('\n')) {
    const line = stripComment(raw).trim();
    if (!line) continue;
    if (/^end\b/.test(line)) {
      stack.pop();
      continue;
    }
    const group = /^group\s*\(?\s*(.*?)\)?\s*(do\b.*|\{.*)$/.exec(line);
    if (group) {
      stack.push(symbols(group[1]!));
      // A one-line block: `group(:dev) { gem "x" }` or `group :dev do gem "x" end`.
      const inner = /^(?:do|\{)\s*(gem\b.*?)\s*(?:\}|\bend)\s*$/.exec(group[2]!);
      if (inner) addGem(inner[1]!);
      if (/\}\s*$/.test(line) || /\bend\s*$/.test(line)) stack.pop();
      continue;
    }
    if (addGem(line)) continue;
    // Any other block keeps the nesting in step with its `end`.
    if (/\bdo(\s*\|[^|]*\|)?\s*$/.test(line) || /^(if|unless|case|while|until|begin|def|class|module)\b/.test(line)) stack.push([]);
  }
  return result;
}
