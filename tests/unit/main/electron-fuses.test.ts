// The Electron fuses of electron-builder.yml (design.md §7): each at its secure value, each a real
// option of the installed electron-builder (an unknown key would only surface at `npm run dist`,
// which needs the Electron download this machine cannot make).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { electronFuses?: Record<string, unknown>; asar?: unknown };
const scheme = JSON.parse(readFileSync(path.join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as {
  definitions: { FuseOptionsV1: { properties: Record<string, { type?: string }> } };
};

const secure: Record<string, boolean> = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
  loadBrowserProcessSpecificV8Snapshot: false,
};

describe('electron-builder.yml fuses', () => {
  const fuses = config.electronFuses ?? {};

  for (const [name, value] of Object.entries(secure)) {
    it(`${name} is ${value}`, () => {
      expect(fuses[name]).toBe(value);
    });
  }

  it('sets only options electron-builder knows, as booleans', () => {
    const known = scheme.definitions.FuseOptionsV1.properties;
    for (const [name, value] of Object.entries(fuses)) {
      expect(known[name], `${name} is not an electron-builder fuse option`).toBeDefined();
      expect(known[name]!.type).toBe('boolean');
      expect(typeof value, name).toBe('boolean');
    }
    // Every fuse the installed electron-builder offers is decided (resetAdHocDarwinSignature is a
    // signing step, not a fuse: electron-builder signs after flipping).
    expect(Object.keys(known).filter((k) => k !== 'resetAdHocDarwinSignature').sort()).toEqual(Object.keys(secure).sort());
  });

  it('packs the app into app.asar, which onlyLoadAppFromAsar and the integrity check rely on', () => {
    expect(config.asar).toBe(true);
  });
});
