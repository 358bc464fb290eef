// Every timestamp is written as an ISO-8601 UTC string, so text comparison orders them on SQLite.
export const nowIso = (): string => new Date().toISOString();
export const minutesFromNow = (minutes: number): string => new Date(Date.now() + minutes * 60_000).toISOString();
