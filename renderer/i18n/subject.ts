// Chinese strings of the subject screens (part of zh, see zh-CN.ts).
export const subjectZh = {} as const;
