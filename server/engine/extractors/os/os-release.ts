// The distribution of an unpacked root filesystem: etc/os-release (usr/lib/os-release when the
// former is absent or a link the unpacker did not keep), else etc/debian_version or
// etc/alpine-release. OS package purls carry it (`distro=debian-12`) and the vulnerability matcher
// reads the release from there.
import type { ExtractContext } from '../../model.ts';

export interface Distribution {
  /** os-release ID, lower case: `debian`, `ubuntu`, `alpine`, `openwrt`. */
  id: string;
  /** VERSION_ID (`12`, `22.04`, `3.19.0`); '' when the release has none (Debian testing/sid). */
  versionId: string;
  /** VERSION_CODENAME (`bookworm`), '' when absent. */
  codename: string;
  /** PRETTY_NAME, or a name made from the fields above. */
  name: string;
  /** Root-relative file it was read from. */
  file: string;
}

/** os-release's shell-style assignments (quotes and backslash escapes as os-release(5) allows). */
export function parseOsRelease(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!.trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\([$"`\\])/g, '$1');
    }
    out[m[1]!] = value;
  }
  return out;
}

const join = (root: string, rel: string) => (root ? `${root}/${rel}` : rel);

async function read(ctx: ExtractContext, path: string): Promise<string | undefined> {
  try {
    return await ctx.readText(path);
  } catch {
    return undefined;
  }
}

/** The distribution of the root filesystem at `root` (root-relative, '' for the scan root), or null. */
export async function findDistribution(ctx: ExtractContext, root: string): Promise<Distribution | null> {
  for (const rel of ['etc/os-release', 'usr/lib/os-release']) {
    const file = join(root, rel);
    const text = await read(ctx, file);
    if (text === undefined) continue;
    const fields = parseOsRelease(text);
    const id = (fields.ID ?? '').toLowerCase();
    if (!id) continue;
    const versionId = fields.VERSION_ID ?? '';
    const codename = fields.VERSION_CODENAME ?? '';
    return { id, versionId, codename, name: fields.PRETTY_NAME || [fields.NAME || id, versionId].filter(Boolean).join(' '), file };
  }
  const debian = (await read(ctx, join(root, 'etc/debian_version')))?.trim();
  if (debian) {
    // `12.4` → release 12 (Debian's os-release names the major only); `trixie/sid` has none.
    const major = /^(\d+)(?:\.\d+)*$/.exec(debian)?.[1] ?? '';
    const codename = major ? '' : debian.split('/')[0]!;
    return { id: 'debian', versionId: major, codename, name: `Debian GNU/Linux ${debian}`, file: join(root, 'etc/debian_version') };
  }
  const alpine = (await read(ctx, join(root, 'etc/alpine-release')))?.trim();
  if (alpine) return { id: 'alpine', versionId: alpine, codename: '', name: `Alpine Linux v${alpine}`, file: join(root, 'etc/alpine-release') };
  return null;
}

/** The purl `distro` qualifier as syft and trivy write it: `debian-12`, `alpine-3.19.0`, `debian-trixie`. */
export function distroQualifier(d: Distribution | null): string | undefined {
  if (!d) return undefined;
  const release = d.versionId || d.codename;
  return release ? `${d.id}-${release}` : d.id;
}
