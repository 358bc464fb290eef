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
  featureFileElsewhere: (name: string) => `上传的文件 ${name} 是 Cairn 特征文件（cairn feature 生成）：请将代码来源选为“特征文件（清单与锁文件）”后发起分析`,
  notImage: (name: string) => `上传的文件 ${name} 不是容器镜像：请上传 docker save 导出的 tar（可为 tar.gz）或 OCI 镜像布局的 tar`,
  imageFeatureFile: (name: string) => `上传的文件 ${name} 是容器镜像的特征文件：请将代码来源选为“镜像特征文件”`,
  imageNotFeature: (name: string) => `上传的文件 ${name} 是容器镜像本身，不是镜像特征文件：请将代码来源选为“本地镜像文件”上传镜像，或用“生成特征文件”（cairn feature）生成特征文件后上传`,
  notImageFeature: (name: string) => `上传的文件 ${name} 不是镜像特征文件：请上传 Cairn 从容器镜像生成的特征文件（桌面端“生成特征文件”或 cairn feature <镜像>，.zip）`,
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
  notRegistry: '只有镜像仓库来源（公共仓库、私有仓库、制品仓库A/B）的项目可以校验镜像',
  imageChecked: (reference: string, platform: string, platforms: string[]) => (platforms.length > 1
    ? `校验通过：可以拉取镜像 ${reference}，分析时拉取 ${platform} 平台（镜像共提供 ${platforms.join('、')}）`
    : `校验通过：可以拉取镜像 ${reference}（${platform}）`),
  imageChoosePlatform: (reference: string, platforms: string[]) =>
    `镜像 ${reference} 可以访问，但没有默认的 linux/amd64 平台，请在“平台”中选择一个：${platforms.join('、')}`,
  /** The platform of an uploaded image the form names, when the image lacks it (the engine's message names those it has). */
  imagePlatformMissing: (name: string, reason: string) => `上传的镜像 ${name} ${reason.replace(/^镜像中/, '中')}，请在“平台”中选择其中一个`,
  imageUploadPlatforms: (platforms: string[], chosen: string | null) => (chosen
    ? (platforms.length > 1 ? `镜像包含 ${platforms.length} 个平台：${platforms.join('、')}，分析 ${chosen}` : `镜像平台：${chosen}`)
    : `镜像包含 ${platforms.length} 个平台：${platforms.join('、')}，没有默认的 linux/amd64 平台，请在“平台”中选择一个`),
  notImageUpload: '只有“本地镜像文件”来源的项目可以读取上传镜像的平台',
  storedPasswordElsewhere: '项目保存的镜像仓库密码只用于保存时的镜像仓库（且不会改用 HTTP 明文发送）：更换了仓库地址或允许 HTTP 时请重新填写密码',
  storedPasswordUnreadable: '无法解密项目保存的镜像仓库密码，请重新填写密码',
};
