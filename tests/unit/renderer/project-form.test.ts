// The project form's rules (spec doc 1 §3, §4): defaults, timing disabled for local-upload types,
// the fields each source type shows, sshType when editing, the request body, the batch import's
// guesses, the task list's URL state and the batch messages.
import { describe, expect, it } from 'vitest';
import { LOCAL_UPLOAD_CODE_TYPES, isCodeType } from '../../../contract/enums.ts';
import {
  ALL_UPLOAD_EXTENSIONS,
  buildBody,
  codeTypeOptionLabel,
  formFromProject,
  guessCodeType,
  imageCheckBody,
  initialForm,
  projectNameFromFile,
  sourceKindOf,
  textFieldsOf,
  timingBody,
  timingFieldsOf,
  uploadFilesOf,
  validateForm,
  withCodeType,
  type ProjectFormState,
  type StoredProject,
} from '../../../renderer/features/project/tasks/projectForm.ts';
import { batchImportMessage, batchLaunchMessage } from '../../../renderer/features/project/tasks/batchSelection.ts';
import { parseTaskList, serializeTaskList, taskListArgs, isPolledStatus } from '../../../renderer/features/project/tasks/taskListQuery.ts';

const label = (f: string) => f;
const uploaded = { uploadId: 'u-1', fileName: 'app.zip', size: 1024 };

/** A GET /api/project/{projectId} answer; `over` replaces top-level fields. */
function stored(over: Partial<StoredProject> = {}): StoredProject {
  return {
    projectId: 9, subjectId: 1, versionId: null, projectName: 'p', getCodeType: 0, analysisModes: '1', projectTags: '',
    retentionAudit: true, outboundLicense: null, source: {}, timing: { enableTiming: false, cronType: 2, week: 1 },
    nextRunAt: null, upload: null, ...over,
  };
}
const gitProject = (source: Record<string, unknown> = {}, getCodeType = 2) => stored({
  getCodeType,
  source: { codeName: 'api', svnGitUri: 'https://git.example.com/api.git', gitBranchName: 'dev', svnGitUserName: 'bob', sshType: 2, hasSvnGitPwd: true, ...source },
  timing: { enableTiming: true, cronType: 5, interval: 2, time: '03:30', weekDays: [1, 3], week: 1 },
  nextRunAt: '2026-11-23T03:30:00.000Z',
});

describe('new project defaults', () => {
  it('has retention audit on, timing off, cron type 2, week 1, modes 1,4,7 and type 9 without a stored choice', () => {
    const f = initialForm();
    expect(f.retentionAudit).toBe(true);
    expect(f.timing.enableTiming).toBe(false);
    expect(f.timing.cronType).toBe(2);
    expect(f.timing.week).toBe(1);
    expect(f.getCodeType).toBe(9);
    expect(f.analysisModes).toEqual([1, 4, 7]);
    expect(f.text.gitBranchName).toBe('master');
    expect(f.artifactoryAuthType).toBe(1);
  });
  it('starts with the last stored getCodeType when it is a known type', () => {
    expect(initialForm({ lastCodeType: '30' }).getCodeType).toBe(30);
    expect(initialForm({ lastCodeType: 0 }).getCodeType).toBe(0);
    expect(initialForm({ lastCodeType: '6' }).getCodeType).toBe(9);
    expect(initialForm({ lastCodeType: 'x' }).getCodeType).toBe(9);
    expect(initialForm({ subjectId: 4 }).subjectId).toBe(4);
  });
});

describe('source types', () => {
  it('names an option by where the source comes from (its group names the kind), never by code', () => {
    expect(codeTypeOptionLabel(0)).toBe('本地上传');
    expect(codeTypeOptionLabel(4)).toBe('Git');
    expect(codeTypeOptionLabel(13)).toBe('公共仓库');
    expect(codeTypeOptionLabel(999)).toBe('--');
  });
  it('shows the fields of each kind', () => {
    expect(sourceKindOf(0)).toBe('upload');
    expect(textFieldsOf(0)).toEqual([]);
    expect(textFieldsOf(2)).toEqual(['codeName', 'svnGitUri', 'gitBranchName', 'svnGitUserName', 'svnGitPwd']);
    expect(textFieldsOf(13)).toEqual(['imageNameTag', 'imageUsername', 'imagePassword']);
    expect(textFieldsOf(11)).toContain('fireFlyIp');
    expect(textFieldsOf(19)).toEqual(['ftpIp', 'ftpFilePath', 'ftpUserName', 'ftpPassWord']);
    expect(textFieldsOf(33)).toEqual(['stream', 'pvob', 'vob']);
  });
  it('accepts the files of each local-upload type, as the table of contract/sources.ts says', () => {
    for (const code of LOCAL_UPLOAD_CODE_TYPES) expect(uploadFilesOf(code).extensions.length).toBeGreaterThan(0);
    expect(uploadFilesOf(0)).toEqual({ extensions: expect.arrayContaining(['.zip', '.tar.gz', '.7z']), folders: 'zip' });
    expect(uploadFilesOf(30).extensions).toEqual(expect.arrayContaining(['.spdx.json', '.xml']));
    expect(uploadFilesOf(34)).toEqual({ extensions: ['.xlsx', '.xls', '.csv'], folders: false });
    expect(uploadFilesOf(2)).toEqual({ extensions: [], folders: false });
  });
  it('offers the batch import every extension a local-upload type takes, once', () => {
    expect(new Set(ALL_UPLOAD_EXTENSIONS).size).toBe(ALL_UPLOAD_EXTENSIONS.length);
    for (const code of LOCAL_UPLOAD_CODE_TYPES) expect(ALL_UPLOAD_EXTENSIONS).toEqual(expect.arrayContaining([...uploadFilesOf(code).extensions]));
    expect(ALL_UPLOAD_EXTENSIONS).toEqual(expect.arrayContaining(['.json', '.xlsx', '.csv', '.zip', '.tar.gz', '.jar', '.whl', '.lock', '.mod']));
  });
});

describe('timing', () => {
  it('is switched off and never sent for local-upload types', () => {
    const f = initialForm({ lastCodeType: 2 });
    const on: ProjectFormState = { ...f, timing: { ...f.timing, enableTiming: true } };
    const local = withCodeType(on, 0);
    expect(local.timing.enableTiming).toBe(false);
    expect(timingBody(on.timing, 0)).toEqual({ enableTiming: false });
    expect(timingBody(on.timing, 2)).toEqual({ enableTiming: true, cronType: 2, week: 1, time: '02:00' });
  });
  it('sends only the fields of its cron type', () => {
    const base = { ...initialForm().timing, enableTiming: true };
    expect(timingBody({ ...base, cronType: 1, month: 15 }, 2)).toEqual({ enableTiming: true, cronType: 1, month: 15, time: '02:00' });
    expect(timingBody({ ...base, cronType: 3 }, 2)).toEqual({ enableTiming: true, cronType: 3, time: '02:00' });
    expect(timingBody({ ...base, cronType: 4, interval: 2, weekFlag: 0, days: [15, 1] }, 2)).toEqual({ enableTiming: true, cronType: 4, interval: 2, weekFlag: 0, days: [1, 15], time: '02:00' });
    expect(timingBody({ ...base, cronType: 4, interval: 3, weekFlag: 5, weekDays: [5, 1] }, 2)).toEqual({ enableTiming: true, cronType: 4, interval: 3, weekFlag: 5, weekDays: [5], time: '02:00' });
    expect(timingBody({ ...base, cronType: 5, interval: 2, weekDays: [3, 1] }, 2)).toEqual({ enableTiming: true, cronType: 5, interval: 2, weekDays: [1, 3], time: '02:00' });
    expect(timingFieldsOf(6)).toEqual(['interval', 'time']);
  });
});

describe('validation', () => {
  it('asks for the subject, a valid name and the upload', () => {
    const errors = validateForm(initialForm({ lastCodeType: 0 }), label);
    expect(errors.subjectId).toBe('请选择应用');
    expect(errors.projectName).toMatch(/请输入1-400个字符/);
    expect(errors.upload).toBe('请上传待分析的文件');
  });
  it('asks for the remote fields a type needs', () => {
    const f = { ...initialForm({ subjectId: 1, lastCodeType: 2 }), projectName: 'api' };
    expect(validateForm(f, label)).toEqual({ svnGitUri: '请填写svnGitUri' });
    expect(validateForm({ ...f, text: { ...f.text, svnGitUri: 'https://git.example.com/a.git' } }, label)).toEqual({});
  });
  it('needs at least one analysis mode and no forbidden symbols', () => {
    const f = { ...initialForm({ subjectId: 1, lastCodeType: 0 }), projectName: 'a<b', upload: uploaded, analysisModes: [] };
    const errors = validateForm(f, label);
    expect(errors.analysisModes).toBe('请至少选择一种分析方式');
    expect(errors.projectName).toBeTruthy();
  });
  it('keeps the stored upload when editing, and asks for one when there is none', () => {
    const f = formFromProject(stored({ upload: uploaded }));
    expect(validateForm(f, label, true)).toEqual({});
    expect(validateForm(formFromProject(stored()), label, true)).toEqual({ upload: '请上传待分析的文件' });
  });
});

describe('body', () => {
  it('carries the upload of a local type and no remote fields', () => {
    const f: ProjectFormState = { ...initialForm({ subjectId: 3, lastCodeType: 0 }), projectName: ' shop ', upload: uploaded, projectTags: ['a', ' b '], analysisModes: [7, 1] };
    expect(buildBody(f)).toEqual({
      subjectId: 3, versionId: null, projectName: 'shop', getCodeType: 0, analysisModes: '1,7', projectTags: 'a,b',
      retentionAudit: true, outboundLicense: '', enableTiming: false, uploadId: 'u-1',
    });
  });
  it('carries the repository fields and password of a Git type, or the key', () => {
    const base = initialForm({ subjectId: 3, lastCodeType: 2 });
    const f: ProjectFormState = { ...base, projectName: 'api', text: { ...base.text, svnGitUri: 'https://g/x.git', svnGitUserName: 'u', svnGitPwd: 'p' } };
    const body = buildBody(f);
    expect(body).toMatchObject({ svnGitUri: 'https://g/x.git', gitBranchName: 'master', svnGitUserName: 'u', svnGitPwd: 'p', sshType: 2 });
    expect(body).not.toHaveProperty('imageNameTag');
    const keyed = buildBody({ ...f, sshType: 1, sshId: 5 });
    expect(keyed).toMatchObject({ sshType: 1, sshId: 5 });
    expect(keyed).not.toHaveProperty('svnGitPwd');
  });
  it('sends the image, FTP and server fields of their types', () => {
    const base = initialForm({ subjectId: 1 });
    const img = buildBody({ ...withCodeType(base, 13), projectName: 'i', text: { ...base.text, imageNameTag: 'nginx:1.25' } });
    expect(img).toMatchObject({ imageNameTag: 'nginx:1.25', artifactoryAuthType: 1 });
    expect(buildBody({ ...withCodeType(base, 19), projectName: 'f', ftpSsl: true })).toMatchObject({ ftpSsl: true, ftpIp: '' });
    expect(buildBody({ ...withCodeType(base, 11), projectName: 's' })).toHaveProperty('fireFlySsl', false);
  });
  it('sends the registry options of a container registry, and only there', () => {
    const base = initialForm({ subjectId: 1 });
    const text = { ...base.text, imageNameTag: ' 127.0.0.1:5000/team/app:1 ', imageUsername: 'alice', imagePassword: 's3cret-pass' };
    const registry = { caPem: ' PEM ', insecure: true, platform: ' linux/arm64 ' };
    const f = { ...withCodeType(base, 31), projectName: 'i', text, registry };
    expect(buildBody(f)).toMatchObject({ imageNameTag: '127.0.0.1:5000/team/app:1', imageCaPem: 'PEM', imageInsecure: true, imagePlatform: 'linux/arm64' });
    // an artifact repository of binaries has the spec's image fields only
    expect(buildBody({ ...f, getCodeType: 17 })).not.toHaveProperty('imageCaPem');
    expect(buildBody({ ...f, getCodeType: 17 })).not.toHaveProperty('imageInsecure');
    expect(imageCheckBody(f)).toEqual({
      getCodeType: 31, imageNameTag: '127.0.0.1:5000/team/app:1', imageUsername: 'alice', imagePassword: 's3cret-pass',
      imageCaPem: 'PEM', imageInsecure: true, imagePlatform: 'linux/arm64',
    });
  });
  it('sends the platform of an uploaded image (本地镜像文件), and no other registry option', () => {
    const base = initialForm({ subjectId: 1 });
    const f: ProjectFormState = { ...withCodeType(base, 12), projectName: 'img', upload: { ...uploaded, fileName: 'multi.tar' }, registry: { caPem: 'PEM', insecure: true, platform: ' linux/arm64 ' } };
    const body = buildBody(f);
    expect(body).toMatchObject({ getCodeType: 12, uploadId: 'u-1', imagePlatform: 'linux/arm64' });
    expect(body).not.toHaveProperty('imageCaPem');
    expect(body).not.toHaveProperty('imageInsecure');
    // empty: the default (clears a stored choice)
    expect(buildBody({ ...f, registry: { ...f.registry, platform: '' } })).toHaveProperty('imagePlatform', '');
    expect(validateForm({ ...f, registry: { ...f.registry, platform: 'arm 64' } }, label).imagePlatform).toMatch(/操作系统\/架构/);
    // other local types carry none
    expect(buildBody({ ...f, getCodeType: 0, upload: uploaded })).not.toHaveProperty('imagePlatform');
  });
  it('checks the platform and the CA of a container registry form', () => {
    const base = { ...withCodeType(initialForm({ subjectId: 1 }), 13), projectName: 'i', text: { ...initialForm().text, imageNameTag: 'alpine' } };
    expect(validateForm(base, label)).toEqual({});
    const bad = validateForm({ ...base, registry: { caPem: 'not a pem', insecure: false, platform: 'amd64' } }, label);
    expect(bad.imagePlatform).toMatch(/操作系统\/架构/);
    expect(bad.imageCaPem).toMatch(/PEM/);
    // the same values are not looked at for a type without registry options
    expect(validateForm({ ...base, getCodeType: 17, registry: { caPem: 'x', insecure: false, platform: 'x' } }, label)).toEqual({});
  });
  it('on edit applies the sshType rule', () => {
    const f = formFromProject(stored({ getCodeType: 7, analysisModes: '1,4', projectTags: 'x,y', retentionAudit: false, source: { sshType: 1, svnGitUri: 'u' } }));
    expect(f.sshType).toBe(2);
    expect(f.analysisModes).toEqual([1, 4]);
    // a mode stored before the engine's missing ones were refused is not offered again
    expect(formFromProject(stored({ analysisModes: '1,3,4,6' })).analysisModes).toEqual([1, 4]);
    expect(formFromProject(stored({ analysisModes: '1,4,8,9' })).analysisModes).toEqual([1, 4, 8, 9]);
    expect(f.projectTags).toEqual(['x', 'y']);
    expect(buildBody(f, { editing: true }).sshType).toBe(2);
    // A form switched to a key-only type sends the key even if the radio said password.
    expect(buildBody({ ...f, getCodeType: 4 }, { editing: true }).sshType).toBe(1);
    expect(formFromProject(stored({ getCodeType: 4, source: { sshType: 2 } })).sshType).toBe(1);
    expect(formFromProject(stored({ getCodeType: 11 })).sshType).toBe(1);
    expect(formFromProject(stored({ getCodeType: 2, source: { sshType: 1, sshId: 5 } }))).toMatchObject({ sshType: 1, sshId: 5 });
  });
  it('drops a kept upload whose file the new type does not accept', () => {
    const f = { ...initialForm({ lastCodeType: 0 }), upload: uploaded };
    expect(withCodeType(f, 16).upload).toEqual(uploaded);
    expect(withCodeType(f, 30).upload).toBeNull();
    expect(withCodeType(f, 2).upload).toBeNull();
  });
});

describe('batch import guesses', () => {
  it('guesses the type from the file name', () => {
    expect(guessCodeType('bom.cdx.json')).toBe(30);
    expect(guessCodeType('app.spdx.json')).toBe(30);
    expect(guessCodeType('sbom.xml')).toBe(30);
    expect(guessCodeType('components.xlsx')).toBe(34);
    expect(guessCodeType('list.csv')).toBe(34);
    expect(guessCodeType('src.tar.gz')).toBe(0);
    expect(guessCodeType('src.zip')).toBe(0);
    expect(guessCodeType('lib.jar')).toBe(16);
    expect(guessCodeType('package-lock.json')).toBe(9);
    expect(guessCodeType('go.mod')).toBe(9);
    expect(guessCodeType('notes.docx')).toBeNull();
    expect(isCodeType(guessCodeType('x.whl'))).toBe(true);
  });
  it('names the project after the file', () => {
    expect(projectNameFromFile('order service.tar.gz')).toBe('order-service');
    expect(projectNameFromFile('C:\\in\\bom.cdx.json')).toBe('bom');
    expect(projectNameFromFile('a<b>.zip')).toBe('a-b');
  });
});

describe('task list state', () => {
  it('round-trips through the URL and builds the request', () => {
    const s = parseTaskList(new URLSearchParams('subjectId=3&q=shop&status=2,never,9&type=30&sort=finishedAt&order=asc&page=2'));
    expect(s).toMatchObject({ subjectId: 3, keyword: 'shop', statuses: [2, 'never'], codeType: 30, sort: 'finishedAt', order: 'asc', page: 2 });
    expect(parseTaskList(serializeTaskList(s))).toEqual(s);
    expect(taskListArgs(s)).toEqual({
      paging: { page: 2, size: 15, sort: 'finishedAt,asc' },
      filter: { subjectId: 3, keyword: 'shop', statuses: [2], getCodeTypes: [30] },
    });
    expect(taskListArgs(parseTaskList(new URLSearchParams('status=never'))).filter).toEqual({ neverRun: true });
    // the filter names a source: Git matches every code the spec gives it
    expect(taskListArgs(parseTaskList(new URLSearchParams('type=2'))).filter).toEqual({ getCodeTypes: [2, 4, 7, 10] });
    expect(serializeTaskList(parseTaskList(new URLSearchParams(''))).toString()).toBe('');
  });
  it('polls resend, queued and analysing rows', () => {
    expect([-1, 0, 1, 2, 3, 4, null].map(isPolledStatus)).toEqual([true, true, true, false, false, false, false]);
  });
});

describe('batch messages', () => {
  it('are the spec text verbatim', () => {
    expect(batchLaunchMessage(3, 1)).toBe('批量任务发起完成，成功：3个， 失败：1个');
    expect(batchImportMessage(2, 0)).toBe('批量导入项目完成，成功：2个， 失败：0个');
  });
});

describe('editing a stored project', () => {
  it('prefills every source field, without the passwords', () => {
    const f = formFromProject(gitProject());
    expect(f.text).toMatchObject({ codeName: 'api', svnGitUri: 'https://git.example.com/api.git', gitBranchName: 'dev', svnGitUserName: 'bob', svnGitPwd: '' });
    expect(f.stored).toEqual({ projectId: 9, getCodeType: 2, secrets: ['svnGitPwd'], uploadId: null });
    expect(validateForm(f, label, true)).toEqual({});
    const ftp = formFromProject(stored({ getCodeType: 19, source: { ftpIp: '10.0.0.5', ftpFilePath: '/drop/app.zip', ftpUserName: 'ftp', ftpSsl: true, hasFtpPassWord: false } }));
    expect(ftp.text).toMatchObject({ ftpIp: '10.0.0.5', ftpFilePath: '/drop/app.zip', ftpUserName: 'ftp', ftpPassWord: '' });
    expect(ftp.ftpSsl).toBe(true);
    expect(ftp.stored?.secrets).toEqual([]);
    const img = formFromProject(stored({ getCodeType: 13, source: { imageNameTag: 'nginx:1.25', artifactoryAuthType: 2, hasImagePassword: true, imageInsecure: true, imagePlatform: 'linux/arm/v7', imageCaPem: 'PEM' } }));
    expect(img).toMatchObject({ artifactoryAuthType: 2, text: expect.objectContaining({ imageNameTag: 'nginx:1.25', imagePassword: '' }) });
    expect(img.registry).toEqual({ caPem: 'PEM', insecure: true, platform: 'linux/arm/v7' });
    // the check of an edited project names it (an empty password uses the stored one) and sends no password
    expect(imageCheckBody(img)).toMatchObject({ projectId: 9, getCodeType: 13, imageNameTag: 'nginx:1.25' });
    expect(imageCheckBody(img)).not.toHaveProperty('imagePassword');
    expect(imageCheckBody({ ...img, getCodeType: 31 })).not.toHaveProperty('projectId');
    const server = formFromProject(stored({ getCodeType: 11, source: { fireFlyIp: 'ff.local', fireFlyPort: 8443, fireFlySsl: true } }));
    expect(server.text.fireFlyPort).toBe('8443');
    expect(server.fireFlySsl).toBe(true);
  });
  it('prefills the timing', () => {
    const f = formFromProject(gitProject());
    expect(f.timing).toMatchObject({ enableTiming: true, cronType: 5, interval: 2, time: '03:30', weekDays: [1, 3] });
    // Timing stays off for local-upload types whatever was stored.
    expect(formFromProject(stored({ timing: { enableTiming: true, cronType: 3 } })).timing.enableTiming).toBe(false);
  });
  it('sends the edited fields and the timing; an empty password keeps the stored one', () => {
    const f = formFromProject(gitProject());
    const body = buildBody({ ...f, text: { ...f.text, svnGitUserName: '', gitBranchName: 'main' } }, { editing: true });
    expect(body).toMatchObject({
      svnGitUri: 'https://git.example.com/api.git', gitBranchName: 'main', svnGitUserName: '', sshType: 2,
      enableTiming: true, cronType: 5, interval: 2, weekDays: [1, 3], time: '03:30',
    });
    expect(body).not.toHaveProperty('svnGitPwd');
    expect(buildBody({ ...f, text: { ...f.text, svnGitPwd: 'new' } }, { editing: true }).svnGitPwd).toBe('new');
    const off = buildBody({ ...f, timing: { ...f.timing, enableTiming: false } }, { editing: true });
    expect(off).toMatchObject({ enableTiming: false });
    expect(off).not.toHaveProperty('cronType');
  });
  it('asks again for a required field the user emptied', () => {
    const f = formFromProject(gitProject());
    expect(validateForm({ ...f, text: { ...f.text, svnGitUri: ' ' } }, label, true)).toEqual({ svnGitUri: '请填写svnGitUri' });
  });
  it('keeps the current upload unless a new file is dropped', () => {
    const f = formFromProject(stored({ upload: uploaded }));
    expect(f.upload).toEqual(uploaded);
    expect(buildBody(f, { editing: true })).not.toHaveProperty('uploadId');
    const dropped = { uploadId: 'u-2', fileName: 'app-2.zip', size: 2048 };
    expect(buildBody({ ...f, upload: dropped }, { editing: true }).uploadId).toBe('u-2');
    // Switched to another local type that accepts the file: the platform needs it named again.
    expect(buildBody(withCodeType(f, 16), { editing: true }).uploadId).toBe('u-1');
  });
});
