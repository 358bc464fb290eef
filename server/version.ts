// The product version, from package.json, for health checks and the OpenAPI description.
import { readFileSync } from 'node:fs';

export function productVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    // A bundled build may sit elsewhere than package.json; the version is informative only.
    return '0.0.0';
  }
}
