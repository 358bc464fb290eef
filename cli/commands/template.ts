// `cairn template [file]`: writes the Chinese Excel template for component lists (getCodeType 34).
import { writeFile } from 'node:fs/promises';

export async function templateCommand(args: string[]): Promise<string> {
  const { loadComponentLists } = await import('../../server/engine/index.ts');
  const { buildTemplate, TEMPLATE_FILE_NAME } = await loadComponentLists();
  const file = args[0] ?? TEMPLATE_FILE_NAME;
  await writeFile(file, await buildTemplate());
  return `已生成组件清单导入模板：${file}`;
}
