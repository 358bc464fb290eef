// The product version, from package.json, for health checks and the OpenAPI description.
import { readFileSync } from 'node:fs';

export function productVersion(): string {
  // From server/version.ts package.json is one folder up; from a bundle (dist/<name>/, also inside
  // the packaged app) two.
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cairn') return pkg.version ?? '0.0.0';
    } catch {
      // Not there: the next place.
    }
  }
  // The version is informative only.
  return '0.0.0';
}
