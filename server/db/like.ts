// A user's search text as a LIKE pattern: lower-cased, with `%`, `_` and `\` typed by the user
// taken literally (queries add `escape '\'`).
export const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
