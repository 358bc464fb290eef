// `cairn compare-versions --ecosystem <eco>`: reads `A B` pairs from stdin and prints `<`, `=` or
// `>` per line, by the ecosystem's own ordering — a way to check a scheme against a registry's
// tool and to answer "is this version newer" from scripts.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { schemeForEcosystem, SCHEME_IDS } from '../../server/engine/index.ts';

export const compareVersionsUsage = `用法：cairn compare-versions --ecosystem <生态> < 版本对.txt

从标准输入逐行读取「A B」两个版本（空格或制表符分隔），按该生态的版本规则比较，逐行输出 <、= 或 >。
空行和以 # 开头的行原样跳过。
生态可用 purl 类型或 OSV 名称：${SCHEME_IDS.join('、')}，以及 PyPI、Maven、Go、crates.io、RubyGems、Packagist、NuGet、Debian、Alpine、Red Hat 等。`;

export async function compareVersionsCommand(args: string[], input: NodeJS.ReadableStream, write: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args, options: { ecosystem: { type: 'string', short: 'e' } } });
  if (!values.ecosystem) {
    console.error(compareVersionsUsage);
    return 2;
  }
  const scheme = schemeForEcosystem(values.ecosystem);
  let lineNo = 0;
  let bad = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    const parts = text.split(/\s+/);
    if (parts.length !== 2) {
      console.error(`第 ${lineNo} 行应为「A B」两个版本：${text}`);
      bad++;
      continue;
    }
    const order = scheme.compare(parts[0]!, parts[1]!);
    write(order < 0 ? '<' : order > 0 ? '>' : '=');
  }
  return bad ? 1 : 0;
}
