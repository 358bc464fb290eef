// WWW-Authenticate challenges (RFC 7235) as registries send them:
//   Basic realm="Registry Realm"
//   Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull"

export interface Challenge {
  /** Lower-case: `basic`, `bearer`, ... */
  scheme: string;
  params: Record<string, string>;
}

/** Every challenge in the header(s), in order; malformed parts are skipped. */
export function parseChallenges(header: string | string[] | undefined): Challenge[] {
  const out: Challenge[] = [];
  for (const text of Array.isArray(header) ? header : header ? [header] : []) {
    let i = 0;
    const n = text.length;
    const skipSpace = () => {
      while (i < n && /[\s,]/.test(text[i]!)) i++;
    };
    const token = () => {
      const start = i;
      while (i < n && /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(text[i]!)) i++;
      return text.slice(start, i);
    };
    let current: Challenge | null = null;
    while (i < n) {
      skipSpace();
      const start = i;
      const name = token();
      if (!name) {
        i++;
        continue;
      }
      let j = i;
      while (j < n && text[j] === ' ') j++;
      if (text[j] === '=' && current) {
        // auth-param
        i = j + 1;
        while (i < n && text[i] === ' ') i++;
        let value = '';
        if (text[i] === '"') {
          i++;
          while (i < n && text[i] !== '"') {
            if (text[i] === '\\' && i + 1 < n) i++;
            value += text[i];
            i++;
          }
          i++;
        } else {
          const vstart = i;
          while (i < n && text[i] !== ',' && text[i] !== ' ') i++;
          value = text.slice(vstart, i);
        }
        current.params[name.toLowerCase()] = value;
      } else if (text[j] === '=' && !current) {
        i = j + 1; // a parameter without a scheme: skip its value
        while (i < n && text[i] !== ',') i++;
      } else {
        current = { scheme: name.toLowerCase(), params: {} };
        out.push(current);
        if (i === start) i++;
      }
    }
  }
  return out;
}

/** The challenge we answer: Bearer before Basic (a registry offering both prefers tokens). */
export function pickChallenge(challenges: Challenge[]): Challenge | null {
  return challenges.find((c) => c.scheme === 'bearer' && c.params.realm) ?? challenges.find((c) => c.scheme === 'basic') ?? null;
}
