// Every Chinese string the renderer shows. Messages quoted by the spec are used verbatim and
// marked "spec". Route titles, tab labels and menu labels live in contract/routes.ts; server
// messages arrive in the envelope and are shown as given.

export const zh = {
  app: {
    name: 'Cairn',
    subtitle: '软件成分分析与开源治理平台',
    loading: '正在加载…',
    desktopMissingTitle: '无法连接桌面服务',
    desktopMissingBody:
      '界面没有找到桌面桥接（window.desktop），无法访问分析平台。请通过 Cairn 桌面客户端，或通过 npm run web 启动的本地网页服务打开本界面，不要直接在浏览器中打开构建出的页面文件。',
    desktopMissingHint: '如果在桌面客户端中看到本页面，请重新启动 Cairn；问题持续出现时请联系管理员。',
    bridgeError: '桌面服务调用失败',
    screenErrorTitle: '页面出错了',
    screenErrorBody: '该页面渲染时发生错误。可以返回首页或重新加载页面；如问题持续出现，请联系管理员。',
    reload: '重新加载',
    backHome: '返回首页',
    notFoundTitle: '页面不存在',
    notFoundBody: (path: string) => `没有找到地址 ${path} 对应的页面。`,
    bridgeMissing: '桌面服务不可用',
    rootMissing: '缺少 #root 容器',
    highlights: ['组件识别：源码、二进制、容器镜像与 SBOM', '漏洞与许可证风险，一处汇总', '项目、任务与报告的全流程治理'],
    mainMenu: '主菜单',
    noPermissionTitle: '没有访问权限',
    noPermissionBody: (title: string, permission: string) =>
      `访问“${title}”需要“${permission}”权限，请联系管理员分配。角色或权限的变更在重新登录后生效。`,
    showPassword: '显示密码',
    hidePassword: '隐藏密码',
    notInSpec: (method: string, path: string) => `规格中没有此接口：${method} ${path}`,
  },

  // Spec doc 1 §8 and §2.
  messages: {
    requestFailed: '请求失败，请稍后重试', // spec
    wrongCredentials: '用户名或密码错误', // spec
    notImplemented: '服务未实现', // spec (HTTP 501)
    modified: '修改成功', // spec
    passwordModified: '修改成功，请用新密码登录', // spec
    saved: '保存成功！', // spec
    deleted: '删除成功！', // spec
    added: '添加成功！', // spec
    operationDone: '操作成功！', // spec
    sessionExpired: '登录状态已失效，请重新登录',
  },

  construction: {
    title: '建设中',
    body: (title: string) => `“${title}”页面正在建设中，将在后续版本中提供。`,
    route: '路由地址',
    tabs: '页面标签',
    back: '返回首页',
    noData: '此页面暂不展示任何数据。',
  },

  section: {
    title: (title: string) => `${title}`,
    intro: '请选择要进入的页面：',
    noneTitle: '没有可访问的页面',
    noneBody: '您的账号在此模块下没有可访问的页面，请联系管理员分配权限。',
    built: '可用',
    building: '建设中',
  },

  product: {
    label: '产品',
    names: { 1: '源码检测', 2: '二进制检测', 3: '私服安全' } as Record<1 | 2 | 3, string>,
    changed: (name: string) => `已切换到${name}`,
  },

  platform: {
    label: '本机平台',
    states: {
      running: '运行中',
      starting: '启动中',
      stopped: '已停止',
      crashed: '已崩溃',
      failed: '启动失败',
    } as Record<'running' | 'starting' | 'stopped' | 'crashed' | 'failed', string>,
    unknown: '状态未知',
    restart: '重启本机平台',
    restarting: '正在重启本机平台…',
    notRunningTitle: '本机平台未运行',
    notRunningBody: '“本机”配置连接的是随客户端内嵌的分析平台，它目前没有运行，因此无法登录。可以重启本机平台，或切换到其他服务器配置。',
    startingBody: '本机平台正在启动，请稍候…',
    restarts: (n: number) => `已自动重启 ${n} 次`,
  },

  shell: {
    home: '首页',
    profile: '服务器',
    switchProfile: '切换服务器',
    manageProfiles: '管理服务器配置…',
    switched: (name: string) => `已切换到服务器“${name}”，请重新登录`,
    userMenu: '用户菜单',
    personal: '个人设置',
    profiles: '服务器配置',
    changePassword: '修改密码',
    logout: '退出登录',
    role: '角色',
    reminders: '漏洞提醒',
    reminderCount: (n: number) => `${n} 条待处理漏洞提醒`,
    more: '更多',
  },

  login: {
    title: '登录',
    welcome: '欢迎使用 Cairn',
    server: '服务器',
    manageProfiles: '管理服务器配置',
    username: '用户名',
    usernamePlaceholder: '请输入用户名',
    password: '密码',
    passwordPlaceholder: '请输入密码',
    savedPasswordPlaceholder: '已保存密码，可直接登录',
    remember: '记住密码',
    rememberHint: '密码保存在操作系统钥匙串中，不会写入普通文件。',
    forget: '清除已保存的密码',
    forgotten: '已清除保存的密码',
    submit: '登录',
    submitting: '正在登录…',
    usernameRequired: '请输入用户名',
    passwordRequired: '请输入密码',
    vaultUnavailable: '钥匙串不可用',
    footer: '登录凭据由桌面客户端保管，界面不会保存您的密码。',
    remote: '远程服务器',
    local: '本机',
  },

  handleLogin: {
    title: '令牌登录',
    working: '正在使用令牌登录…',
    failed: '令牌登录失败',
    toLogin: '前往登录',
  },

  logout: {
    working: '正在退出登录…',
  },

  changePassword: {
    title: '修改密码',
    forced: '为了账号安全，首次登录或密码过期时需要先修改密码，修改完成后才能使用其他功能。',
    oldPassword: '原密码',
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    oldRequired: '请输入原密码',
    newRequired: '请输入新密码',
    confirmRequired: '请再次输入新密码',
    mismatch: '两次输入的新密码不一致',
    sameAsOld: '新密码不能与原密码相同',
    submit: '确认修改',
    cancel: '返回',
    afterChange: '修改成功后所有登录会话都会结束，需要使用新密码重新登录。',
  },

  personal: {
    title: '个人设置',
    subtitle: '查看和修改您的账号信息',
    account: '账号信息',
    username: '用户名',
    name: '姓名',
    email: '邮箱',
    phone: '手机号',
    role: '角色',
    roleAndPermissions: '角色与权限',
    permissions: '权限数量',
    permissionsValue: (n: number) => `${n} 项`,
    dataScope: '数据权限',
    userType: '用户类型',
    userTypes: { 0: '平台用户', 2: 'LDAP 用户', 3: '开放接口用户' } as Record<number, string>,
    externalUser: '同步的外部用户',
    edit: '编辑',
    save: '保存',
    cancel: '取消',
    empty: '未填写',
    security: '账号安全',
    passwordHint: '定期修改密码可以提高账号安全性。',
    changePassword: '修改密码',
    emailInvalid: '请输入正确的邮箱地址',
    phoneInvalid: '请输入正确的手机号（仅数字、空格、加号和短横线，最多 30 位）',
    loadFailed: '无法加载个人信息',
    retry: '重试',
  },

  profiles: {
    title: '服务器配置',
    subtitle: '管理客户端连接的分析平台。“本机”是随客户端内嵌的平台，不能删除。',
    add: '添加服务器',
    edit: '编辑',
    remove: '删除',
    activate: '切换到此服务器',
    active: '当前使用',
    test: '测试连接',
    testing: '正在测试…',
    testOk: (ms: number | null) => (ms === null ? '连接成功' : `连接成功，延迟 ${ms} ms`),
    testFailed: (reason: string) => `连接失败：${reason}`,
    columns: {
      name: '名称',
      url: '地址',
      kind: '类型',
      username: '上次登录用户',
      lastUsed: '最近使用',
      security: '证书',
      actions: '操作',
    },
    kinds: { local: '本机（内嵌平台）', remote: '远程服务器' } as Record<'local' | 'remote', string>,
    localUrl: '随客户端启动',
    selfSigned: '允许自签名证书',
    strictTls: '校验证书',
    never: '从未使用',
    empty: '还没有服务器配置',
    loadFailed: '无法读取服务器配置',
    dialogAdd: '添加服务器',
    dialogEdit: '编辑服务器',
    name: '名称',
    namePlaceholder: '例如：总部分析平台',
    url: '服务器地址',
    urlPlaceholder: 'https://sca.example.com',
    urlHelp: '以 http:// 或 https:// 开头的分析平台地址。',
    urlInvalid: '请输入以 http:// 或 https:// 开头的地址',
    allowSelfSigned: '允许自签名证书',
    allowSelfSignedHelp: '仅在内网服务器使用自签名证书时开启。开启后不再校验证书颁发者。',
    save: '保存',
    cancel: '取消',
    removeTitle: '删除服务器配置',
    removeBody: (name: string) => `确定删除服务器配置“${name}”吗？该服务器上保存的密码也会从钥匙串中移除。`,
    removeConfirm: '删除',
    localCannotRemove: '“本机”配置不能删除',
    activated: (name: string) => `已切换到服务器“${name}”`,
    reloginNeeded: '切换服务器后，如果该服务器上没有有效的登录会话，需要重新登录。',
    back: '返回登录',
    backToApp: '返回',
  },

  clickGuard: {
    wait: '请勿重复提交',
  },

  states: {
    loading: '正在加载…',
    empty: '暂无数据',
    error: '加载失败',
    retry: '重试',
  },
} as const;

export type Strings = typeof zh;
