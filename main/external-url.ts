// Which links may leave the app for the system browser: https only, a real host name, no
// credentials. Anything else (file:, javascript:, http:, custom schemes, bare words) is refused,
// because shell.openExternal hands the URL to the OS, which will happily run other handlers.
export function isSafeExternalUrl(raw: unknown): boolean {
  if (typeof raw !== 'string' || raw.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname;
  if (!host || host === 'localhost' || host.endsWith('.localhost')) return false;
  const isIp = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  return isIp || host.includes('.');
}
