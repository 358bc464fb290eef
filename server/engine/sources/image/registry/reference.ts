// Image references as Docker reads them (the distribution project's reference grammar and its
// normalisation): `alpine` is docker.io/library/alpine:latest, `ghcr.io/o/r@sha256:...` names a
// digest, `registry.local:5000/team/app:1.2` a host with a port.
import { RegistryError } from './errors.ts';

export interface ImageReference {
  /** Host (and `:port`) as written, `docker.io` for Docker Hub. */
  registry: string;
  /** The repository path, `library/alpine` for a one-part name on Docker Hub. */
  repository: string;
  /** The tag; `latest` when neither a tag nor a digest was written, null when only a digest was. */
  tag: string | null;
  /** `sha256:<64 hex>` when the reference names a digest. */
  digest: string | null;
}

export const DOCKER_HUB = 'docker.io';
/** Docker Hub's API host (docker.io is only its name). */
export const DOCKER_HUB_API = 'registry-1.docker.io';

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[0-9a-fA-F:.]+\])(?::[0-9]{1,5})?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
export const DIGEST = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;
const ANY_DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-zA-Z=_-]{32,}$/;

const invalid = (text: string, why: string) => new RegistryError('reference', `镜像地址“${text}”无效：${why}`);

/** Parses a reference the way `docker pull` does; throws RegistryError('reference') naming the problem. */
export function parseImageReference(text: string): ImageReference {
  const input = text.trim();
  if (!input) throw new RegistryError('reference', '请填写镜像地址，例如 registry.example.com/team/app:1.0');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) throw invalid(input, '不要带 http:// 或 https:// 前缀，请写成 主机[:端口]/仓库:标签');
  if (/\s/.test(input)) throw invalid(input, '不能包含空白字符');

  let rest = input;
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!ANY_DIGEST.test(digest)) throw invalid(input, `摘要“${digest}”格式不正确，应为 sha256:<64 位十六进制>`);
    if (!DIGEST.test(digest)) throw invalid(input, `摘要“${digest}”使用了不支持的算法或格式（支持 sha256 与 sha512，十六进制小写）`);
  }

  // A tag follows the last colon after the last slash (a colon before it is the port).
  let tag: string | null = null;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw invalid(input, `标签“${tag}”不合法（字母、数字、_ . -，最长 128 个字符，不能以 . 或 - 开头）`);
  }
  if (!rest) throw invalid(input, '缺少仓库名');

  let registry = DOCKER_HUB;
  let path = rest;
  const first = rest.indexOf('/');
  if (first >= 0) {
    const head = rest.slice(0, first);
    if (/[.:]/.test(head) || head === 'localhost' || head.toLowerCase() !== head) {
      registry = head;
      path = rest.slice(first + 1);
      if (!DOMAIN.test(registry)) throw invalid(input, `仓库地址“${registry}”不是合法的主机名或 主机:端口`);
      const port = /:(\d+)$/.exec(registry);
      if (port && (Number(port[1]) < 1 || Number(port[1]) > 65535)) throw invalid(input, `端口 ${port[1]} 超出范围`);
    }
  }
  if (registry === 'index.docker.io' || registry === DOCKER_HUB_API) registry = DOCKER_HUB;
  if (!path) throw invalid(input, '缺少仓库名');
  if (path.toLowerCase() !== path) throw invalid(input, '仓库名只能使用小写字母');
  for (const component of path.split('/')) {
    if (!PATH_COMPONENT.test(component)) throw invalid(input, `仓库名中的“${component || '（空）'}”不合法（小写字母、数字，以 . _ __ - 分隔）`);
  }
  if (registry === DOCKER_HUB && !path.includes('/')) path = `library/${path}`;
  if (`${registry}/${path}`.length > 255) throw invalid(input, '仓库全名超过 255 个字符');
  if (tag === null && digest === null) tag = 'latest';
  return { registry, repository: path, tag, digest };
}

/** The reference written out in full: `docker.io/library/alpine:3.20`, `host:5000/app@sha256:...`. */
export function formatImageReference(ref: ImageReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** The host the API is reached at (Docker Hub's name differs from its API host). */
export const apiHost = (ref: ImageReference): string => (ref.registry === DOCKER_HUB ? DOCKER_HUB_API : ref.registry);
