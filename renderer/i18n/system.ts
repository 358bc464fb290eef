// Strings of the administration screens (/system/*) built on the shared list pieces.

export const systemZh = {
  // /system/projectType 项目类型
  projectType: {
    subtitle: '应用可选的类型：已上线的类型在新建和设置应用时可选，已下线的保留在已有应用上',
    keyword: '关键字',
    keywordPlaceholder: '类型名称或备注',
    status: '状态',
    name: '项目类型名称',
    remark: '备注',
    subjects: '应用数',
    createdBy: '创建人',
    updatedAt: '更新时间',
    add: '新增项目类型',
    addTitle: '新增项目类型',
    editTitle: '编辑项目类型',
    namePlaceholder: '例如 Web应用、移动端、内部工具',
    nameHelp: '1-100 个字符，不能包含空格及 *?"<>|；《》',
    renameHelp: (n: number) => `改名后，使用该类型的 ${n} 个应用随之更新`,
    remarkPlaceholder: '可选，最多 200 个字符',
    online: '上线',
    offline: '下线',
    removeTitle: '删除项目类型',
    removeBody: (name: string) => `确定删除项目类型“${name}”吗？删除后不可恢复。`,
    loadFailed: '项目类型加载失败',
    emptyFiltered: '没有符合条件的项目类型',
    emptyFilteredBody: '调整或重置筛选条件后再试。',
    empty: '还没有项目类型',
    emptyBody: '添加后，新建和设置应用时即可选择应用类型。',
  },
};
