// Sensitive information (敏感信息, analysis mode 9): the kinds a finding or a rule has.
import type { CodeOf } from './enums.ts';

/**
 * Kinds of sensitive information (敏感信息, analysis mode 9) found in the strings of an upload's
 * binaries and text files (server/engine/detectors/leaks): what a shipped artefact should not
 * disclose about where and by whom it was built, nor the secrets compiled into it.
 */
export const LEAK_TYPE_LABEL = {
  ip: '内网 IP 地址',
  host: '内部网址与主机名',
  path: '构建机路径',
  credential: '账号口令',
  'private-key': '私钥',
  token: '访问令牌',
  email: '电子邮箱',
} as const;
export type LeakType = CodeOf<typeof LEAK_TYPE_LABEL>;
export const LEAK_TYPES = Object.keys(LEAK_TYPE_LABEL) as LeakType[];
/** Types whose matched value is a secret: stored and shown masked except the rule's safe part. */
export const SECRET_LEAK_TYPES: readonly LeakType[] = ['credential', 'private-key', 'token'];
