// main/services/private-files.ts under a permissive umask (000): folders 0700, files 0600 all the
// same; the app's data folder and its top level are tightened on an upgraded install, links are
// not followed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makePrivateDir, makePrivateDirSync, preparePrivateFolder, privateWriteStream, writePrivateFile } from '../../../main/services/private-files.ts';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;
let umask: number;
let dir: string;
beforeAll(() => { umask = process.umask(0o000); });
afterAll(() => { process.umask(umask); });
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-main-private-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('desktop private files (umask 000)', () => {
  it('creates folders 0700 and files 0600', async () => {
    await makePrivateDir(path.join(dir, 'library/p/e'));
    makePrivateDirSync(path.join(dir, 'upload-temp/zip'));
    await writePrivateFile(path.join(dir, 'library/p/e/entry.json'), '{}');
    for (const flags of ['w', 'wx', 'a'] as const) {
      await new Promise<void>((resolve, reject) => privateWriteStream(path.join(dir, `f-${flags}`), flags).end('x', resolve).on('error', reject));
    }
    for (const p of ['library', 'library/p', 'library/p/e', 'upload-temp', 'upload-temp/zip']) expect(modeOf(path.join(dir, p)), p).toBe(0o700);
    for (const f of ['library/p/e/entry.json', 'f-w', 'f-wx', 'f-a']) expect(modeOf(path.join(dir, f)), f).toBe(0o600);
  });

  it('tightens an upgraded app data folder and its top level only, without following links', () => {
    const home = path.join(dir, 'Cairn');
    fs.mkdirSync(path.join(home, 'library/p'), { recursive: true });
    fs.writeFileSync(path.join(home, 'profiles.json'), '{}', { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'elsewhere'), '', { mode: 0o644 });
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(home, 'link'));
    for (const p of [home, path.join(home, 'library'), path.join(home, 'library/p')]) fs.chmodSync(p, 0o755);
    preparePrivateFolder(home);
    expect(modeOf(home)).toBe(0o700);
    expect(modeOf(path.join(home, 'profiles.json'))).toBe(0o600);
    expect(modeOf(path.join(home, 'library'))).toBe(0o700);
    expect(modeOf(path.join(home, 'library/p'))).toBe(0o755);
    expect(modeOf(path.join(dir, 'elsewhere'))).toBe(0o644);
  });
});
