// Chinese strings of the task screens (part of zh, see zh-CN.ts).
export const taskZh = {} as const;
