import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { desktopContract, walkContract } from '../../../contract/ipc/desktop-contract.ts';
import { createDispatcher, type Handlers } from '../../../main/ipc/dispatcher.ts';
import { createHandlers } from '../../../main/ipc/handlers.ts';
import { createAppServices } from '../../../main/services/app-services.ts';
import { DesktopError } from '../../../main/services/errors.ts';
import { createMemoryStore } from '../../support/memory-store.ts';
import { createVault } from '../../../main/services/vault.ts';
import { fakePlatform, memoryKeyring } from './fakes.ts';

const services = () =>
  createAppServices({ shell: 'web', version: '0.1.0', dataDir: '/data', store: createMemoryStore(), vault: createVault({ backend: memoryKeyring() }), platform: fakePlatform('http://127.0.0.1:1') });

describe('IPC dispatcher', () => {
  it('has a handler for every invoke channel of the contract', () => {
    const dispatcher = createDispatcher(createHandlers(services()));
    const invokes = walkContract(desktopContract).filter((d) => d.descriptor.kind === 'invoke').map((d) => d.descriptor.channel);
    expect([...dispatcher.channels].sort()).toEqual(invokes.sort());
    expect(invokes).toContain('profiles:list');
  });

  it('dispatches a valid call and returns the value as data', async () => {
    const dispatcher = createDispatcher(createHandlers(services()), { checkResponses: true });
    expect(await dispatcher.dispatch('app:info', {})).toEqual({ ok: true, value: { version: '0.1.0', shell: 'web', platform: process.platform, dataDir: '/data' } });
    const added = await dispatcher.dispatch('profiles:add', { name: '团队', url: 'https://cairn.example.com' });
    expect(added).toMatchObject({ ok: true, value: { name: '团队', kind: 'remote' } });
    const list = await dispatcher.dispatch('profiles:list', {});
    expect(list.ok && (list.value as { profiles: unknown[] }).profiles).toHaveLength(2);
  });

  it('rejects a bad payload with a Chinese message BEFORE the handler runs', async () => {
    const handlers = createHandlers(services());
    const add = vi.fn(handlers.profiles.add);
    const dispatcher = createDispatcher({ ...handlers, profiles: { ...handlers.profiles, add } } as Handlers);
    const empty = await dispatcher.dispatch('profiles:add', { name: '', url: 'https://x.example' });
    expect(empty).toEqual({ ok: false, error: { code: 'invalid-payload', message: '参数无效：name 不能为空' } });
    const missing = await dispatcher.dispatch('profiles:add', { name: 'x' });
    expect(missing).toEqual({ ok: false, error: { code: 'invalid-payload', message: '参数无效：缺少必填字段 url' } });
    const wrongType = await dispatcher.dispatch('profiles:add', { name: 1, url: 'https://x.example' });
    expect(wrongType.ok || wrongType.error.message).toBe('参数无效：name 类型应为字符串');
    const tooLong = await dispatcher.dispatch('profiles:add', { name: 'x'.repeat(101), url: 'https://x.example' });
    expect(tooLong.ok || tooLong.error.message).toBe('参数无效：name 长度不能超过 100 个字符');
    expect(await dispatcher.dispatch('profiles:add', 'oops')).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(await dispatcher.dispatch('profiles:add', undefined)).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    const badPath = await dispatcher.dispatch('api:call', { method: 'GET', path: 'http://evil.example/api/x' });
    expect(badPath.ok || badPath.error.message).toBe('参数无效：path 格式不正确');
    const badMethod = await dispatcher.dispatch('api:call', { method: 'TRACE', path: '/api/x' });
    expect(badMethod).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(add).not.toHaveBeenCalled();
  });

  it('answers an unknown channel as data', async () => {
    const dispatcher = createDispatcher(createHandlers(services()));
    expect(await dispatcher.dispatch('shell:exec', { cmd: 'rm -rf /' })).toEqual({ ok: false, error: { code: 'unknown-channel', message: '未知的调用：shell:exec' } });
    expect(await dispatcher.dispatch('profiles:changed', {})).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
  });

  it('turns service errors into data and hides unexpected ones', async () => {
    const handlers = createHandlers(services());
    const onError = vi.fn();
    const dispatcher = createDispatcher(
      { ...handlers, app: { info: () => { throw new Error('secret internals'); } }, vault: { status: () => { throw new DesktopError('vault-unavailable', '系统钥匙串不可用'); } } } as Handlers,
      { onError },
    );
    expect(await dispatcher.dispatch('app:info', {})).toEqual({ ok: false, error: { code: 'internal', message: '操作失败：发生内部错误，请重试' } });
    expect(onError).toHaveBeenCalledOnce();
    expect(await dispatcher.dispatch('vault:status', {})).toEqual({ ok: false, error: { code: 'vault-unavailable', message: '系统钥匙串不可用' } });
    expect(await dispatcher.dispatch('profiles:remove', { id: 'local' })).toEqual({ ok: false, error: { code: 'not-allowed', message: '“本机”是内嵌平台，不能删除' } });
  });

  it('flags a handler result that breaks the response schema when checking responses', async () => {
    const handlers = createHandlers(services());
    const dispatcher = createDispatcher({ ...handlers, app: { info: () => ({ version: 1 }) } } as unknown as Handlers, { checkResponses: true });
    expect(await dispatcher.dispatch('app:info', {})).toMatchObject({ ok: false, error: { code: 'invalid-response' } });
  });
});

describe('IPC dispatcher: local paths', () => {
  // Spies in place of the services that would read the file: they must not run for a refused path.
  function spied() {
    const handlers = createHandlers(services());
    const start = vi.fn(async ({ path: file }: { path: string }) => ({ localId: 'u1', uploadId: null, fileName: path.basename(file), sent: 0, total: 0, bytesPerSecond: 0, state: 'preparing' as const, error: null }));
    const open = vi.fn(async () => ({ kind: 'html' as const, fileName: 'a.docx', html: '<p>ok</p>' }));
    const chosenByDialog = [path.resolve('/home/user/projects/app.zip'), path.resolve('/home/user/projects/service')];
    const pick = vi.fn(async () => chosenByDialog);
    const reviewPick = vi.fn(async () => [path.resolve('/home/user/reports/sbom.cdx.json')]);
    const dispatcher = createDispatcher(
      { ...handlers, uploads: { ...handlers.uploads, start, pick }, review: { open, pick: reviewPick } } as Handlers,
      { checkResponses: true },
    );
    return { dispatcher, start, open, chosenByDialog };
  }

  it('refuses a path the user did not choose, in Chinese, BEFORE the handler runs', async () => {
    const { dispatcher, start, open } = spied();
    for (const file of [path.resolve('/etc/passwd'), path.resolve('/home/user/.ssh/id_ed25519'), 'relative/app.zip', '']) {
      expect(await dispatcher.dispatch('uploads:start', { path: file || 'x' }), file).toEqual({ ok: false, error: { code: 'forbidden-path', message: '只能上传本次运行中通过选择或拖放提供的文件，请重新选择' } });
      expect(await dispatcher.dispatch('review:open', { path: file }), file).toEqual({ ok: false, error: { code: 'forbidden-path', message: '只能查看本次运行中通过选择或拖放提供的文件，请重新选择' } });
    }
    expect(start).not.toHaveBeenCalled();
    expect(open).not.toHaveBeenCalled();
    // A library entry is named by id: no path to check.
    expect(await dispatcher.dispatch('review:open', { id: 'entry-1' })).toMatchObject({ ok: true });
  });

  it('accepts what the native dialog answered, and only that', async () => {
    const { dispatcher, start, chosenByDialog } = spied();
    expect(await dispatcher.dispatch('uploads:pick', { folders: true, multiple: true })).toEqual({ ok: true, value: chosenByDialog });
    for (const file of chosenByDialog) expect(await dispatcher.dispatch('uploads:start', { path: file })).toMatchObject({ ok: true });
    expect(start).toHaveBeenCalledTimes(2);
    // Not something next to it, inside it, or reached through `..`.
    for (const file of [path.join(chosenByDialog[1]!, 'config', 'secrets.env'), `${chosenByDialog[0]}.bak`, path.join(chosenByDialog[1]!, '..', '..', '.ssh', 'id_rsa')]) {
      expect(await dispatcher.dispatch('uploads:start', { path: file }), file).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    }
    expect(start).toHaveBeenCalledTimes(2);
    expect(await dispatcher.dispatch('review:pick', {})).toMatchObject({ ok: true });
    expect(await dispatcher.dispatch('review:open', { path: path.resolve('/home/user/reports/sbom.cdx.json') })).toMatchObject({ ok: true });
  });

  it('accepts what the host registered (a drop in Electron, a staged file in the web host); registries are per dispatcher', async () => {
    const { dispatcher, open } = spied();
    const dropped = path.resolve('/home/user/Downloads/report.pdf');
    dispatcher.chosenPaths.add(dropped);
    expect(await dispatcher.dispatch('review:open', { path: dropped })).toMatchObject({ ok: true });
    expect(open).toHaveBeenCalledWith({ path: dropped });
    expect(await spied().dispatcher.dispatch('review:open', { path: dropped })).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
  });

  it('with the real services: the web host has no dialog, so nothing gets chosen by asking', async () => {
    const dispatcher = createDispatcher(createHandlers(services()));
    expect(await dispatcher.dispatch('uploads:pick', {})).toMatchObject({ ok: false, error: { code: 'no-native-dialog' } });
    expect(dispatcher.chosenPaths.size).toBe(0);
    expect(await dispatcher.dispatch('uploads:start', { path: path.resolve('/data/profiles.json') })).toMatchObject({ ok: false, error: { code: 'forbidden-path' } });
    expect((await dispatcher.dispatch('uploads:list', {}))).toEqual({ ok: true, value: [] });
  });
});
