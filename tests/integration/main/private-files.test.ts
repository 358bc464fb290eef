// The desktop's files are private (issue 13, item 6), as another local user would find them: under
// a permissive umask (000) every folder main/ makes in the app's data folder is 0700 and every file
// 0600 — the app data folder itself (and an upgraded install's, tightened at start), the profile
// store, the web host's staged browser files, a folder zipped for upload, the embedded platform's
// data folder. The report library's files are checked in library.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../main/services/app-services.ts';
import { createLocalPlatform, type PlatformChild } from '../../../main/services/local-platform.ts';
import { createConfStore } from '../../../main/services/store.ts';
import { prepareSource } from '../../../main/services/upload-source.ts';
import { createVault } from '../../../main/services/vault.ts';
import { stageFile } from '../../../main/web-host/staging.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { fakePlatform, memoryKeyring } from '../../unit/main/fakes.ts';
import { tempDir } from './helpers.ts';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;
const work = tempDir('cairn-main-private-');
let umask: number;
beforeAll(() => { umask = process.umask(0o000); });
afterAll(() => {
  process.umask(umask);
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('desktop files are owner-only (umask 000)', () => {
  it('tightens an upgraded app data folder and its top level when the services start', () => {
    const home = path.join(work, 'upgraded');
    fs.mkdirSync(path.join(home, 'library/local'), { recursive: true, mode: 0o777 });
    fs.mkdirSync(path.join(home, 'upload-temp'), { mode: 0o777 });
    fs.writeFileSync(path.join(home, 'profiles.json'), '{}', { mode: 0o644 });
    const services = createAppServices({ shell: 'web', version: 'test', dataDir: home, store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform() });
    try {
      expect(modeOf(home)).toBe(0o700);
      expect(modeOf(path.join(home, 'library'))).toBe(0o700);
      expect(modeOf(path.join(home, 'upload-temp'))).toBe(0o700);
      expect(modeOf(path.join(home, 'profiles.json'))).toBe(0o600);
    } finally {
      services.dispose();
    }
  });

  it('creates a new app data folder and the profile store owner-only', () => {
    const home = path.join(work, 'fresh/Cairn');
    const store = createConfStore(home);
    store.set('profiles', []);
    expect(modeOf(path.join(work, 'fresh'))).toBe(0o700);
    expect(modeOf(home)).toBe(0o700);
    expect(modeOf(path.join(home, 'profiles.json'))).toBe(0o600);
  });

  it('stages a browser file (web host) owner-only, folders and all', async () => {
    const stage = path.join(work, 'home/upload-temp/web');
    const batch = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const staged = await stageFile(stage, batch, 'app/src/main.c', Readable.from([Buffer.from('int main;')]) as unknown as IncomingMessage);
    expect(staged.ok).toBe(true);
    for (const dir of ['home', 'home/upload-temp', 'home/upload-temp/web', `home/upload-temp/web/${batch}`, `home/upload-temp/web/${batch}/app`, `home/upload-temp/web/${batch}/app/src`]) {
      expect(modeOf(path.join(work, dir)), dir).toBe(0o700);
    }
    expect(modeOf(path.join(stage, batch, 'app/src/main.c'))).toBe(0o600);
  });

  it('zips a folder for upload into an owner-only temp file', async () => {
    const folder = path.join(work, 'project');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'package.json'), '{}', { mode: 0o666 });
    const source = await prepareSource(folder, path.join(work, 'home2/upload-temp/zip'));
    try {
      expect(modeOf(source.file)).toBe(0o600);
      for (let dir = path.dirname(source.file); dir !== work; dir = path.dirname(dir)) expect(modeOf(dir), dir).toBe(0o700);
    } finally {
      await source.cleanup();
    }
  });

  it("creates the embedded platform's data folder owner-only", async () => {
    const dataDir = path.join(work, 'home3/platform');
    const children: PlatformChild[] = [];
    const platform = createLocalPlatform({
      dataDir,
      spawner: {
        spawn(_env, handlers) {
          const child: PlatformChild = { pid: 4242, send: () => { setImmediate(() => handlers.onExit(0, null)); return true; }, kill: () => setImmediate(() => handlers.onExit(null, 'SIGTERM')) };
          children.push(child);
          return child;
        },
      },
      startTimeoutMs: 60_000,
      shutdownGraceMs: 10,
      termGraceMs: 10,
    });
    void platform.start().catch(() => {});
    try {
      expect(children).toHaveLength(1);
      expect(modeOf(path.join(work, 'home3'))).toBe(0o700);
      expect(modeOf(dataDir)).toBe(0o700);
    } finally {
      await platform.stop();
    }
  });
});
