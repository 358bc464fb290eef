// The registry of paths the user chose this session (main/ipc/chosen-paths.ts), and its table of
// which calls take a path: exact matches only (no `..`, no prefix, no relative path), folders
// opened up only where a call asks for it and never through a link, the oldest forgotten past
// the cap; and every path-like request field of the contract accounted for.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktopContract, walkContract, type InvokeDescriptor } from '../../../contract/ipc/desktop-contract.ts';
import { CHOOSING_CHANNELS, PATH_FIELDS, createChosenPaths, refusedPath, registerChosen } from '../../../main/ipc/chosen-paths.ts';

describe('chosen paths registry', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-chosen-'));
    mkdirSync(path.join(dir, 'project', 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'project', 'src', 'main.go'), 'package main');
    writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(dir, 'project', 'link.txt'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('allows exactly what was added, normalised, and nothing beside it', async () => {
    const chosen = createChosenPaths();
    const sbom = path.join(dir, 'reports', 'sbom.json');
    chosen.add(sbom);
    expect(await chosen.allows(sbom)).toBe(true);
    expect(await chosen.allows(path.join(dir, 'reports', '.', 'x', '..', 'sbom.json'))).toBe(true);
    expect(await chosen.allows(path.join(dir, 'reports', 'sbom.json', '..', '..', 'secret.txt'))).toBe(false);
    expect(await chosen.allows(`${sbom}.bak`)).toBe(false);
    expect(await chosen.allows(path.join(dir, 'reports'))).toBe(false);
    expect(await chosen.allows(path.join(dir, 'secret.txt'))).toBe(false);
    expect(chosen.size).toBe(1);
  });

  it('never takes or allows a relative or empty path (it would depend on the working directory)', async () => {
    const chosen = createChosenPaths();
    chosen.add('sbom.json');
    chosen.add('');
    expect(chosen.size).toBe(0);
    chosen.add(path.resolve('sbom.json'));
    expect(await chosen.allows('sbom.json')).toBe(false);
    expect(await chosen.allows('')).toBe(false);
    expect(await chosen.allows(42 as unknown as string)).toBe(false);
  });

  it('opens a chosen folder only when asked to, and never through a link out of it', async () => {
    const chosen = createChosenPaths();
    const project = path.join(dir, 'project');
    chosen.add(project);
    const inside = path.join(project, 'src', 'main.go');
    expect(await chosen.allows(project)).toBe(true);
    expect(await chosen.allows(inside)).toBe(false);
    expect(await chosen.allows(inside, true)).toBe(true);
    // A link inside the folder leads out of it: refused even though its path is inside.
    expect(await chosen.allows(path.join(project, 'link.txt'), true)).toBe(false);
    // A sibling whose name starts like the folder is not inside it.
    expect(await chosen.allows(path.join(dir, 'project-other', 'a.txt'), true)).toBe(false);
    expect(await chosen.allows(path.join(project, '..', 'secret.txt'), true)).toBe(false);
    // A chosen file has nothing inside it.
    chosen.add(path.join(dir, 'secret.txt'));
    expect(await chosen.allows(path.join(dir, 'secret.txt', 'x'), true)).toBe(false);
  });

  it('forgets the oldest path past its cap; adding again makes a path the newest', async () => {
    const chosen = createChosenPaths(3);
    const p = (n: number) => path.join(dir, `f${n}.zip`);
    chosen.add(p(1));
    chosen.add(p(2));
    chosen.add(p(3));
    chosen.add(p(1));
    chosen.add(p(4));
    expect(chosen.size).toBe(3);
    expect(await chosen.allows(p(2))).toBe(false);
    for (const n of [1, 3, 4]) expect(await chosen.allows(p(n))).toBe(true);
  });
});

describe('calls that take or answer chosen paths', () => {
  const request = (channel: string) => (walkContract().find((d) => d.descriptor.channel === channel)!.descriptor as InvokeDescriptor).request;

  it('refuses an unchosen path field with the call\'s Chinese message, passes an absent one', async () => {
    const chosen = createChosenPaths();
    const file = path.resolve('/home/user/app.zip');
    expect(await refusedPath(chosen, 'uploads:start', { path: file })).toBe('只能上传本次运行中通过选择或拖放提供的文件，请重新选择');
    expect(await refusedPath(chosen, 'review:open', { path: file })).toBe('只能查看本次运行中通过选择或拖放提供的文件，请重新选择');
    expect(await refusedPath(chosen, 'review:open', { id: 'entry-1' })).toBeNull();
    expect(await refusedPath(chosen, 'profiles:list', {})).toBeNull();
    registerChosen(chosen, 'uploads:pick', [file]);
    expect(await refusedPath(chosen, 'uploads:start', { path: file })).toBeNull();
    // Only the choosing calls register what they answer.
    registerChosen(chosen, 'library:list', [path.resolve('/etc/passwd')]);
    expect(await refusedPath(chosen, 'review:open', { path: path.resolve('/etc/passwd') })).not.toBeNull();
  });

  it('the table names real calls and fields; the choosing calls answer lists of paths', () => {
    for (const [channel, fields] of PATH_FIELDS) {
      const schema = request(channel) as { properties: Record<string, { type?: string }> };
      for (const { field } of fields) expect(schema.properties[field]?.type, `${channel}.${field}`).toBe('string');
    }
    for (const channel of CHOOSING_CHANNELS) {
      const descriptor = walkContract().find((d) => d.descriptor.channel === channel)!.descriptor as InvokeDescriptor;
      expect(descriptor.response, channel).toMatchObject({ type: 'array', items: { type: 'string' } });
    }
    expect([...CHOOSING_CHANNELS].sort()).toEqual([desktopContract.review.pick.channel, desktopContract.uploads.pick.channel].sort());
  });

  it('every path-like field of every request is checked here, or is known not to be a local path', () => {
    // Not local paths: a platform API path (pattern ^/(api|cloneApi|codeApi)/), and a file name the
    // report library makes safe before it names a file in its own folder.
    const notLocal = new Set(['api:call path', 'library:download fileName']);
    const found: string[] = [];
    const visit = (channel: string, schema: unknown, at: string) => {
      const s = schema as { type?: string; properties?: Record<string, unknown>; anyOf?: unknown[]; items?: unknown };
      if (s.properties) for (const [key, child] of Object.entries(s.properties)) visit(channel, child, at ? `${at}.${key}` : key);
      for (const option of s.anyOf ?? []) visit(channel, option, at);
      if (s.items) visit(channel, s.items, `${at}[]`);
      // Words of the camelCase name: `filePath`, `dir`, `sourceFolder`… (not `profileId`).
      const words = (at.split(/[.[\]]/).filter(Boolean).pop() ?? '').replace(/([A-Z])/g, ' $1').toLowerCase().split(' ');
      if (s.type === 'string' && words.some((w) => /^(path|file|dir|directory|folder)s?$/.test(w))) found.push(`${channel} ${at}`);
    };
    for (const { descriptor } of walkContract()) if (descriptor.kind === 'invoke') visit(descriptor.channel, descriptor.request, '');
    const checked = [...PATH_FIELDS].flatMap(([channel, fields]) => fields.map((f) => `${channel} ${f.field}`));
    expect(found.filter((f) => !notLocal.has(f)).sort()).toEqual(checked.sort());
    expect(checked.sort()).toEqual(['review:open path', 'uploads:start path']);
  });
});
