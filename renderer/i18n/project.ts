// Chinese strings of the project screens (part of zh, see zh-CN.ts).
export const projectZh = {} as const;
