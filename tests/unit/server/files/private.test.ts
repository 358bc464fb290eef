// server/files/private.ts under a permissive umask (000): what it creates is owner-only all the
// same (folders 0700, files 0600), an existing install's folder and its top level are tightened, and
// links are never followed. Without the explicit modes every check here would see 0777 or 0666.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  copyPrivateFile, makePrivateDir, makePrivateDirOnce, makePrivateDirSync, makePrivateTempDir, openPrivate, preparePrivateFolder,
  privateEntryMode, privateWriteStream, touchPrivateFileSync, writePrivateFile, writePrivateFileSync,
} from '../../../../server/files/private.ts';

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;
let umask: number;
let dir: string;
beforeAll(() => { umask = process.umask(0o000); });
afterAll(() => { process.umask(umask); });
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-private-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('private files (umask 000)', () => {
  it('folders are 0700, every missing parent too', async () => {
    await makePrivateDir(path.join(dir, 'a/b/c'));
    makePrivateDirSync(path.join(dir, 's/t'));
    await makePrivateDirOnce(path.join(dir, 'once'));
    const temp = await makePrivateTempDir(path.join(dir, 'x/y/run-'));
    for (const p of ['a', 'a/b', 'a/b/c', 's', 's/t', 'once', 'x', 'x/y']) expect(modeOf(path.join(dir, p)), p).toBe(0o700);
    expect(modeOf(temp)).toBe(0o700);
    await expect(makePrivateDirOnce(path.join(dir, 'once'))).rejects.toThrow(/EEXIST/);
  });

  it('files are 0600 however they are written', async () => {
    await writePrivateFile(path.join(dir, 'w'), 'x');
    writePrivateFileSync(path.join(dir, 'ws'), 'x', 'wx');
    await new Promise<void>((resolve, reject) => privateWriteStream(path.join(dir, 'stream')).end('x', resolve).on('error', reject));
    await new Promise<void>((resolve, reject) => privateWriteStream(path.join(dir, 'append'), { flags: 'a' }).end('x', resolve).on('error', reject));
    await (await openPrivate(path.join(dir, 'opened'), 'a')).close();
    touchPrivateFileSync(path.join(dir, 'touched'));
    for (const f of ['w', 'ws', 'stream', 'append', 'opened', 'touched']) expect(modeOf(path.join(dir, f)), f).toBe(0o600);
    expect(() => writePrivateFileSync(path.join(dir, 'ws'), 'y', 'wx')).toThrow(/EEXIST/);
  });

  it('an existing file a library will open is tightened, its content kept', () => {
    const file = path.join(dir, 'cairn.db');
    fs.writeFileSync(file, 'data', { mode: 0o666 });
    touchPrivateFileSync(file);
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('data');
  });

  it('a copy is 0600, or 0700 when the source was executable by anyone', async () => {
    fs.writeFileSync(path.join(dir, 'plain'), 'x', { mode: 0o666 });
    fs.writeFileSync(path.join(dir, 'tool'), 'x', { mode: 0o4755 });
    await copyPrivateFile(path.join(dir, 'plain'), path.join(dir, 'plain.copy'));
    await copyPrivateFile(path.join(dir, 'tool'), path.join(dir, 'tool.copy'));
    expect(fs.statSync(path.join(dir, 'plain.copy')).mode & 0o7777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'tool.copy')).mode & 0o7777).toBe(0o700);
  });

  it('archive entry modes keep only the owner (and owner execute when any execute bit was set)', () => {
    expect(privateEntryMode(undefined)).toBe(0o600);
    expect(privateEntryMode(0o666)).toBe(0o600);
    expect(privateEntryMode(0o4777)).toBe(0o700);
    expect(privateEntryMode(0o001)).toBe(0o700);
  });

  it('an existing data folder is tightened with its top level, not deeper, and links are not followed', () => {
    const data = path.join(dir, 'data');
    fs.mkdirSync(path.join(data, 'uploads/deep'), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(data, 'cairn.db'), '', { mode: 0o666 });
    fs.writeFileSync(path.join(data, 'uploads/u1'), '', { mode: 0o666 });
    fs.writeFileSync(path.join(dir, 'outside'), '', { mode: 0o666 });
    fs.symlinkSync(path.join(dir, 'outside'), path.join(data, 'link'));
    for (const p of [data, path.join(data, 'uploads'), path.join(data, 'uploads/deep')]) fs.chmodSync(p, 0o777);
    preparePrivateFolder(data);
    expect(modeOf(data)).toBe(0o700);
    expect(modeOf(path.join(data, 'uploads'))).toBe(0o700);
    expect(modeOf(path.join(data, 'cairn.db'))).toBe(0o600);
    // Below the top level: reachable by nobody else through 0700 folders; left as it was.
    expect(modeOf(path.join(data, 'uploads/u1'))).toBe(0o666);
    expect(modeOf(path.join(dir, 'outside'))).toBe(0o666);
    preparePrivateFolder(path.join(dir, 'new/data'));
    expect(modeOf(path.join(dir, 'new'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'new/data'))).toBe(0o700);
  });
});
