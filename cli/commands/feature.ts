// `cairn feature <folder | image> [-o out.zip]`: writes a feature file (server/engine/feature/):
// the manifests, lockfiles, package databases and licence/notice files an analysis reads, and the
// size and SHA-256 of every other file. Of a folder, uploaded as 特征文件（清单与锁文件）, it gives
// the platform the same components, vulnerabilities and declared licences as the folder itself,
// without its source. Of a container image (docker save tar, OCI layout folder or tar, told by
// content; or `--image <reference>` pulled from a registry with the options of `cairn scan
// --image`), uploaded as 镜像特征文件, the same as the image itself, each component with its layer,
// without the layers.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { productVersion } from '../../server/version.ts';
import { pullToLayout, REGISTRY_OPTIONS, UsageError, type ScanIo } from './scan.ts';

export const featureUsage = `用法：cairn feature <目录> [--output 文件]
      cairn feature <容器镜像（docker save 的 tar、OCI 镜像目录或其 tar）> [--platform 平台] [--output 文件]
      cairn feature --image <镜像地址> [--platform 平台] [--username 用户 --password-stdin] [--ca-file 文件] [--insecure-http] [--output 文件]

生成特征文件（zip）：只包含分析所需的清单、锁文件、软件包数据库和许可证/声明文件，
其余每个文件只记录路径、大小与 SHA-256，源码不会离开本机。
  目录的特征文件：在平台上以代码来源“特征文件（清单与锁文件）”上传，得到与上传整个目录相同的
  组件、漏洞与声明许可证。
  容器镜像的特征文件：镜像在本机解开（与平台分析时相同的平台选择与层叠加），每个文件记录带来它的层，
  并附镜像的摘要、平台、操作系统与各层；在平台上以代码来源“镜像特征文件”上传，得到与上传镜像相同的
  组件（含所属层）、漏洞与镜像信息，镜像层本身不会上传。

  --output, -o      特征文件的路径（默认：当前目录下的 <名称>.cairn-feature.zip）
  --platform        多平台镜像要使用的平台，例如 linux/arm64（默认 linux/amd64）
  --image           从镜像仓库拉取镜像（拉取到私有临时目录，写完后删除），例如 registry.example.com/team/app:1.0
  --username        镜像仓库用户名
  --password-stdin  从标准输入读取镜像仓库密码或令牌（密码不接受命令行参数，也不会打印）
  --ca-file         额外信任的 CA 证书文件（PEM），用于自签名证书的私有仓库
  --insecure-http   用不加密的 HTTP 访问镜像仓库（仅限可信网络）`;

export class FeatureUsageError extends Error {}

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} 字节`);

/** `app.tar.gz` → `app`; an image folder keeps its name. */
const baseName = (p: string) => path.basename(p).replace(/\.(tar\.gz|tgz|tar)$/i, '') || 'image';

function parse(args: string[]) {
  if (args.some((a) => a === '--password' || a.startsWith('--password='))) throw new FeatureUsageError('不接受命令行上的密码：请用 --password-stdin 从标准输入传入');
  try {
    return parseArgs({ args, allowPositionals: true, options: { output: { type: 'string', short: 'o' }, ...REGISTRY_OPTIONS } });
  } catch (error) {
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1] ?? '';
    throw new FeatureUsageError(`${option ? `未知选项或缺少取值：${option}` : (error as Error).message}\n\n${featureUsage}`);
  }
}

/** Where the registry password comes from and where progress lines go (tests pass their own), and the files listed so far. */
export interface FeatureIo extends Partial<ScanIo> {
  onProgress?: (files: number) => void;
}

export async function featureCommand(args: string[], io: FeatureIo | ((files: number) => void) = {}): Promise<{ file: string; summary: string }> {
  const passed: FeatureIo = typeof io === 'function' ? { onProgress: io } : io;
  const options: ScanIo & FeatureIo = { ...passed, readStdin: passed.readStdin ?? readStdin };
  const { values, positionals } = parse(args);
  const pulling = values.image !== undefined;
  const target = positionals[0];
  if (pulling ? positionals.length > 0 : !target || positionals.length > 1) throw new FeatureUsageError(pulling ? `--image 与要生成特征文件的路径只能给一个\n\n${featureUsage}` : featureUsage);
  const registryOnly = (['username', 'password-stdin', 'ca-file', 'insecure-http'] as const).filter((o) => values[o]);
  if (!pulling && registryOnly.length) throw new FeatureUsageError(`${registryOnly.map((o) => `--${o}`).join('、')} 只用于 --image 从镜像仓库拉取`);
  const engine = await import('../../server/engine/index.ts');
  const tool = { name: 'Cairn', version: productVersion() };
  const onProgress = options.onProgress ? (event: { files: number }) => { if (event.files % 500 === 0) options.onProgress!(event.files); } : undefined;
  const started = performance.now();
  const described = (result: { file: string; files: number; bytes: number; included: number; includedBytes: number; problems: number }, what: string) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return `${what}特征文件已写入 ${result.file}：${result.files} 个文件（${sizeText(result.bytes)}），其中 ${result.included} 个清单、锁文件与许可证文件（${sizeText(result.includedBytes)}）随文件提交，其余只记录 SHA-256${result.problems ? `；${result.problems} 个问题（见清单 problems）` : ''}，用时 ${seconds} 秒`;
  };
  const refused = (error: unknown): never => {
    if (error instanceof UsageError || error instanceof engine.ImageError || error instanceof engine.RegistryError) throw new FeatureUsageError(error.message);
    throw error;
  };

  if (pulling) {
    const work = await mkdtemp(path.join(tmpdir(), 'cairn-feature-pull-'));
    try {
      const { layout, reference } = await pullToLayout({
        reference: values.image!, platform: values.platform, username: values.username, passwordStdin: values['password-stdin'], caFile: values['ca-file'], insecureHttp: values['insecure-http'],
      }, options, work).catch(refused);
      const name = reference.split('/').pop()!.replace(/[:@].*$/, '') || 'image';
      const out = path.resolve(values.output ?? `${name}.cairn-feature.zip`);
      options.progress?.(`已拉取 ${reference}，开始生成特征文件`);
      const result = await engine.writeImageFeatureFile(layout, out, { tool, reference, platform: values.platform, tempDir: work, onProgress }).catch(refused);
      return { file: result.file, summary: described(result, `镜像 ${reference} 的`) };
    } finally {
      await rm(work, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  const given = path.resolve(target!);
  const info = await stat(given).catch(() => null);
  if (!info) throw new FeatureUsageError(`找不到目录或镜像：${target}`);
  if (await engine.detectImage(given)) {
    const out = path.resolve(values.output ?? `${baseName(given)}.cairn-feature.zip`);
    if (info.isDirectory() && (out === given || out.startsWith(given + path.sep))) throw new FeatureUsageError(`特征文件不能写在镜像目录 ${target} 之内：请用 --output 指定目录之外的路径`);
    const result = await engine.writeImageFeatureFile(given, out, { tool, platform: values.platform, onProgress }).catch(refused);
    return { file: result.file, summary: described(result, '镜像') };
  }
  if (values.platform) throw new FeatureUsageError(`--platform 只用于容器镜像，${target} 不是镜像`);
  if (!info.isDirectory()) throw new FeatureUsageError(`${target} 不是目录，也不是容器镜像：特征文件从项目目录，或从 docker save 的 tar、OCI 镜像目录或其 tar 生成`);
  const folder = given;
  const out = path.resolve(values.output ?? `${path.basename(folder) || 'project'}.cairn-feature.zip`);
  if (out === folder || out.startsWith(folder + path.sep)) throw new FeatureUsageError(`特征文件不能写在被扫描的目录 ${target} 之内：请用 --output 指定目录之外的路径`);
  const result = await engine.writeFeatureFile(folder, out, { tool, onProgress });
  return { file: result.file, summary: described(result, '') };
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin 需要从标准输入传入密码，例如：printf %s "$TOKEN" | cairn feature --image … --username 用户 --password-stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
