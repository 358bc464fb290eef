// What the task area (projects, launches, the administrators' queue) tells the user when it
// refuses something. A refused data scope is UserError.denied() (HTTP 403, 用户无权查看当前项目).
export const TASK_MSG = {
  subjectMissing: '应用不存在',
  projectMissing: '项目不存在',
  /** A project named by id that does not exist or lies outside the caller's data scope: the same answer either way. */
  projectUnavailable: '项目不存在或无权访问',
  /** The subject of a batch import that does not exist or lies outside the caller's data scope. */
  subjectUnavailable: '应用不存在或无权访问',
  versionMissing: '所选版本不属于该应用',
  nameTaken: '该应用下已有同名项目',
  badCodeType: '代码来源类型无效',
  uploadRequired: '请先上传要分析的文件',
  uploadMissing: '上传的文件不存在或尚未上传完成，请重新上传',
  uploadForeign: '不能使用其他用户上传的文件',
  notArchive: (name: string) => `上传的文件 ${name} 不是可读取的压缩包（支持 zip、jar、war、tar、tar.gz、tar.bz2、tar.xz、7z），请重新上传`,
  badArchive: (name: string, reason: string) => `上传的文件 ${name} 无法分析：${reason}，请检查后重新上传`,
  badModes: '请至少选择一种有效的分析方式',
  badLicense: (text: string) => `无法识别项目许可证“${text}”，请填写 SPDX 许可证表达式，例如 Apache-2.0 或 MIT OR GPL-2.0-only`,
  fieldRequired: (label: string, field: string) => `代码来源“${label}”需要填写 ${field}`,
  busy: '该项目已有排队中、分析中或已暂停的任务',
  stopped: '任务已被用户停止',
  nothingToStop: '该项目没有排队中或分析中的任务',
  ftpUnsupported: 'FTP 来源暂不支持自动获取文件，将在后续版本提供',
  notGit: '只有 Git 来源的项目可以修改分支',
  timingLocal: '本地上传类型的项目不能设置定时分析',
  userMissing: '用户不存在',
  runMissing: '任务不存在',
  notQueued: '只有排队中的任务可以移到队首',
  notPausable: '只有排队中或分析中的任务可以暂停',
  notPaused: '只有已暂停的任务可以恢复',
  notRemovable: '只有排队中、已暂停或分析中的任务可以从队列移除',
  removed: '任务已从队列中移除',
};
