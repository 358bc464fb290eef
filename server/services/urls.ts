// Addresses users type into forms (trackers, private registries, advisory references): only
// http(s) with a host. Syntax only: nothing here connects anywhere.
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
