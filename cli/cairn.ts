#!/usr/bin/env node
// `cairn` command line. Subcommands grow with the product (scan, kb, report arrive with their
// issues); each lives in cli/commands/ and returns its output as text, loaded only when it runs.
// Run from sources, it hands over to the built bundle (dist/cli/cairn.js, `npm run build`) when
// that was built from the sources as they are: the same program, without type stripping and with
// far fewer modules to load (server/launch.ts).
import { pathToFileURL } from 'node:url';
import { bundleToRun, enableCompileCache } from '../server/launch.ts';

enableCompileCache();
const [command, ...rest] = process.argv.slice(2);

const usage = `用法：cairn <命令>

命令：
  scan      扫描目录、压缩包或容器镜像（文件或从镜像仓库拉取）中的开源组件（cairn scan --help 查看选项）
  feature   生成目录或容器镜像的特征文件：只含清单、锁文件与许可证文件，其余文件只记 SHA-256（cairn feature --help 查看选项）
  template  生成 Excel 组件清单导入模板（cairn template [文件名]）
  licenses  识别文件或目录中的许可证文本和版权声明（cairn licenses --help 查看选项）
  kb        漏洞知识库：导入 OSV/NVD/trivy/CNNVD 数据、从镜像同步（cairn kb --help 查看选项）
  compare-versions  按生态的版本规则比较标准输入中的版本对（cairn compare-versions --ecosystem <生态>）
  user      平台账号的恢复：解除锁定、重置密码（cairn user --help 查看选项）
  access    平台的 IP 访问规则：列出、停用（被规则挡在门外时恢复访问；cairn access --help 查看选项）
  routes    以 JSON 输出渲染进程注册的全部页面路由（path、tabs、built）
  calls     以 JSON 输出平台服务端的全部接口（method、path、implemented）
  help      显示本帮助`;

async function main(): Promise<number> {
  switch (command) {
    case 'routes': {
      const { routesCommand } = await import('./commands/routes.ts');
      console.log(routesCommand());
      return 0;
    }
    case 'scan': {
      const { scanCommand, scanUsage, UsageError } = await import('./commands/scan.ts');
      if (rest.includes('--help') || rest.includes('-h')) { console.log(scanUsage); return 0; }
      try {
        const { output, file, summary } = await scanCommand(rest);
        if (!file) process.stdout.write(output);
        console.error(file ? `${summary}，结果已写入 ${file}` : summary);
        return 0;
      } catch (error) {
        if (error instanceof UsageError) { console.error(error.message); return 2; }
        // A refused image, registry, archive or list (ImageError, RegistryError, UnpackError …): its
        // Chinese message, credentials already redacted, and no stack.
        const { isUserError } = await import('../server/errors.ts');
        if (isUserError(error)) { console.error(error.message); return 1; }
        throw error;
      }
    }
    case 'feature': {
      const { featureCommand, featureUsage, FeatureUsageError } = await import('./commands/feature.ts');
      if (rest.includes('--help') || rest.includes('-h')) { console.log(featureUsage); return 0; }
      try {
        const { summary } = await featureCommand(rest, { onProgress: (files) => process.stderr.write(`已处理 ${files} 个文件…\r`), progress: (line) => console.error(line) });
        console.error(summary);
        return 0;
      } catch (error) {
        if (error instanceof FeatureUsageError) { console.error(error.message); return 2; }
        throw error;
      }
    }
    case 'template': {
      const { templateCommand } = await import('./commands/template.ts');
      console.log(await templateCommand(rest));
      return 0;
    }
    case 'licenses': {
      const { licensesCommand, licensesUsage, LicensesUsageError } = await import('./commands/licenses.ts');
      if (rest.includes('--help') || rest.includes('-h')) { console.log(licensesUsage); return 0; }
      try {
        const { output, file, summary } = await licensesCommand(rest);
        if (!file) process.stdout.write(output);
        console.error(file ? `${summary}，结果已写入 ${file}` : summary);
        return 0;
      } catch (error) {
        if (error instanceof LicensesUsageError) { console.error(error.message); return 2; }
        throw error;
      }
    }
    case 'kb': {
      const { kbCommand, kbUsage } = await import('./commands/kb.ts');
      if (!rest.length || rest.includes('--help') || rest.includes('-h')) { console.log(kbUsage); return rest.length ? 0 : 2; }
      const { output, code } = await kbCommand(rest);
      if (output) console.log(output);
      return code;
    }
    case 'compare-versions': {
      const { compareVersionsCommand, compareVersionsUsage } = await import('./commands/compare-versions.ts');
      if (rest.includes('--help') || rest.includes('-h')) { console.log(compareVersionsUsage); return 0; }
      return compareVersionsCommand(rest, process.stdin, (line) => process.stdout.write(`${line}\n`));
    }
    case 'user': {
      const { userCommand, userUsage } = await import('./commands/user.ts');
      if (!rest.length || rest.includes('--help') || rest.includes('-h') || rest[0] === 'help') { console.log(userUsage); return rest.length ? 0 : 2; }
      return userCommand(rest, { stdin: process.stdin, out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(`${text}\n`) });
    }
    case 'access': {
      const { accessCommand, accessUsage } = await import('./commands/access.ts');
      if (!rest.length || rest.includes('--help') || rest.includes('-h') || rest[0] === 'help') { console.log(accessUsage); return rest.length ? 0 : 2; }
      return accessCommand(rest, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(`${text}
`) });
    }
    case 'calls': {
      const { callsCommand } = await import('./commands/calls.ts');
      console.log(callsCommand());
      return 0;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return 0;
    default:
      console.error(`未知命令：${command}${rest.length ? ' ' + rest.join(' ') : ''}\n\n${usage}`);
      return 2;
  }
}

const bundle = bundleToRun('cli', import.meta.filename);
if (bundle) await import(pathToFileURL(bundle).href);
else process.exitCode = await main();
