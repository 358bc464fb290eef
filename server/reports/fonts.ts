// The report fonts: Noto Sans SC shipped inside the @expo-google-fonts/noto-sans-sc npm package.
// PDF and chart output must not depend on the fonts of the machine that writes them (a server or
// a fresh desktop often has no CJK font at all), so every writer loads exactly these files.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { UserError } from '../errors.ts';

const require = createRequire(import.meta.url);
const PACKAGE = '@expo-google-fonts/noto-sans-sc';

function resolveFont(file: string): string {
  const path = require.resolve(`${PACKAGE}/${file}`);
  if (!existsSync(path)) throw new UserError(`报告字体文件不存在：${path}`, 'unavailable');
  return path;
}

/** The family name inside the TTF files (what SVG text and resvg's defaultFontFamily refer to). */
export const REPORT_FONT_FAMILY = 'Noto Sans SC';

let cached: { regular: string; bold: string } | null = null;

/** Absolute paths of the regular (400) and bold (700) font files, resolved once. */
export function reportFonts(): { regular: string; bold: string } {
  cached ??= {
    regular: resolveFont('400Regular/NotoSansSC_400Regular.ttf'),
    bold: resolveFont('700Bold/NotoSansSC_700Bold.ttf'),
  };
  return cached;
}
