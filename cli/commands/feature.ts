// `cairn feature <folder> [-o out.zip]`: writes the folder's feature file (server/engine/feature/):
// the manifests, lockfiles, package databases and licence/notice files an analysis reads, and the
// size and SHA-256 of every other file. Uploaded as 特征文件（清单与锁文件）, it gives the platform
// the same components, vulnerabilities and declared licences as the folder itself, without its source.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { productVersion } from '../../server/version.ts';

export const featureUsage = `用法：cairn feature <目录> [--output 文件]

生成目录的特征文件（zip）：只包含分析所需的清单、锁文件、软件包数据库和许可证/声明文件，
其余每个文件只记录路径、大小与 SHA-256，源码不会离开本机。在平台上以代码来源
“特征文件（清单与锁文件）”上传，得到与上传整个目录相同的组件、漏洞与声明许可证。

  --output, -o   特征文件的路径（默认：当前目录下的 <目录名>.cairn-feature.zip）`;

export class FeatureUsageError extends Error {}

const sizeText = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} 字节`);

export async function featureCommand(args: string[], onProgress?: (files: number) => void): Promise<{ file: string; summary: string }> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { output: { type: 'string', short: 'o' } } });
  const target = positionals[0];
  if (!target || positionals.length > 1) throw new FeatureUsageError(featureUsage);
  const folder = path.resolve(target);
  const info = await stat(folder).catch(() => null);
  if (!info) throw new FeatureUsageError(`找不到目录：${target}`);
  if (!info.isDirectory()) throw new FeatureUsageError(`${target} 不是目录：特征文件从项目目录生成（容器镜像的特征文件随镜像分析提供）`);
  const out = path.resolve(values.output ?? `${path.basename(folder) || 'project'}.cairn-feature.zip`);
  if (out === folder || out.startsWith(folder + path.sep)) throw new FeatureUsageError(`特征文件不能写在被扫描的目录 ${target} 之内：请用 --output 指定目录之外的路径`);
  const { writeFeatureFile } = await import('../../server/engine/index.ts');
  const started = performance.now();
  const result = await writeFeatureFile(folder, out, {
    tool: { name: 'Cairn', version: productVersion() },
    onProgress: onProgress ? (event) => { if (event.files % 500 === 0) onProgress(event.files); } : undefined,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const summary = `特征文件已写入 ${result.file}：${result.files} 个文件（${sizeText(result.bytes)}），其中 ${result.included} 个清单、锁文件与许可证文件（${sizeText(result.includedBytes)}）随文件提交，其余只记录 SHA-256${result.problems ? `；${result.problems} 个问题（见清单 problems）` : ''}，用时 ${seconds} 秒`;
  return { file: result.file, summary };
}
