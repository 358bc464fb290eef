// Network failures (no HTTP answer at all) in words a user can act on. Used by the API client and
// by the connection test of server profiles.

export type NetworkFailureKind = 'refused' | 'dns' | 'timeout' | 'certificate' | 'tls' | 'reset' | 'unreachable' | 'other';

export interface NetworkFailure {
  kind: NetworkFailureKind;
  /** Node's error code when there is one (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT, ...). */
  code: string | null;
  message: string;
}

const CERTIFICATE_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: '服务器使用自签名证书',
  SELF_SIGNED_CERT_IN_CHAIN: '证书链中有自签名证书',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证服务器证书',
  UNABLE_TO_GET_ISSUER_CERT: '找不到证书的签发者',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: '本机不信任该证书的签发者',
  CERT_HAS_EXPIRED: '证书已过期',
  CERT_NOT_YET_VALID: '证书尚未生效',
  CERT_REVOKED: '证书已被吊销',
  CERT_UNTRUSTED: '证书不受信任',
  CERT_SIGNATURE_FAILURE: '证书签名无效',
  ERR_TLS_CERT_ALTNAME_INVALID: '证书与服务器地址不匹配',
  HOSTNAME_MISMATCH: '证书与服务器地址不匹配',
};

/** The first Node error code found on an error or along its `cause` chain. */
function codeOf(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_BAD_REQUEST' && code !== 'ERR_BAD_RESPONSE' && code !== 'ERR_NETWORK') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** Describe a request that got no HTTP answer. `timeoutMs` is quoted in the timeout message. */
export function describeNetworkError(err: unknown, timeoutMs?: number): NetworkFailure {
  const code = codeOf(err);
  const text = err instanceof Error ? err.message : String(err);
  const seconds = timeoutMs ? `（${Math.round(timeoutMs / 100) / 10} 秒内无响应）` : '';
  if (code && CERTIFICATE_CODES[code]) {
    return { kind: 'certificate', code, message: `证书无效：${CERTIFICATE_CODES[code]}。如确认服务器可信，可在服务器设置中允许自签名证书` };
  }
  if (code && code.startsWith('CERT_')) return { kind: 'certificate', code, message: `证书无效（${code}）` };
  switch (code) {
    case 'ECONNREFUSED':
      return { kind: 'refused', code, message: '无法连接：服务器拒绝连接，请检查地址和端口，或确认平台已启动' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { kind: 'dns', code, message: '无法连接：找不到该服务器（域名无法解析）' };
    case 'ETIMEDOUT':
    case 'ECONNABORTED':
    case 'ESOCKETTIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { kind: 'timeout', code, message: `连接超时${seconds}，请检查网络或服务器状态` };
    case 'ECONNRESET':
    case 'EPIPE':
      return { kind: 'reset', code, message: '连接被服务器中断，请重试' };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return { kind: 'unreachable', code, message: '无法连接：网络不可达' };
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return { kind: 'tls', code, message: '无法建立安全连接：该地址可能不支持 HTTPS（请检查是 http 还是 https）' };
  }
  if (code && code.startsWith('ERR_SSL')) return { kind: 'tls', code, message: `无法建立安全连接（${code}）` };
  if (/timeout/i.test(text)) return { kind: 'timeout', code, message: `连接超时${seconds}，请检查网络或服务器状态` };
  return { kind: 'other', code, message: `无法连接：${code ?? text}` };
}
