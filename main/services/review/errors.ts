// Messages of the offline reader: the file is the user's, so every refusal says why in Chinese.
import { DesktopError } from '../errors.ts';

export const MB = 1024 * 1024;
/** Largest file read at all (JSON is parsed in memory, workbooks are loaded whole). */
export const MAX_FILE_BYTES = 200 * MB;
/** Largest PDF handed to the in-app viewer (it crosses IPC as base64). */
export const MAX_PDF_BYTES = 100 * MB;
/** Zip (docx, xlsx, SWID) limits, against zip bombs. */
export const MAX_ZIP_ENTRIES = 10_000;
export const MAX_ZIP_RATIO = 200;
/** The ratio counts once this much is inflated (small, very regular XML parts compress far better). Same as the platform's unpacker. */
export const ZIP_RATIO_GRACE_BYTES = 16 * MB;
/** Largest total the entries may inflate to (workbooks and documents are read in memory). */
export const MAX_ZIP_UNCOMPRESSED = 1024 * MB;
/** Rows shown per Excel sheet. */
export const MAX_SHEET_ROWS = 20_000;

export const REVIEW_MSG = {
  unsupported: '无法识别的文件格式，支持 PDF、Word、Excel、CycloneDX、SPDX、OpenVEX 与 SWID 标签包',
  notFound: '找不到该文件，可能已被移动或删除',
  notFile: '只能查看文件，不能打开文件夹',
  notAllowed: '只能查看通过选择或拖放提供的文件',
  empty: '文件为空',
  tooLarge: `文件超过 ${MAX_FILE_BYTES / MB} MB，无法在应用内查看，请使用系统程序打开`,
  pdfTooLarge: `PDF 超过 ${MAX_PDF_BYTES / MB} MB，无法在应用内查看，请使用系统程序打开`,
  zipEntries: `压缩包内的文件超过 ${MAX_ZIP_ENTRIES} 个，已拒绝打开`,
  zipRatio: `压缩包的压缩比超过 ${MAX_ZIP_RATIO}:1，可能是压缩炸弹，已拒绝打开`,
  zipTotal: `压缩包解压后超过 ${MAX_ZIP_UNCOMPRESSED / MB} MB，已拒绝打开`,
  zipBroken: '压缩包已损坏，无法读取',
  badJson: '文件内容不是有效的 JSON，无法读取',
  badXml: '文件内容不是有效的 XML，无法读取',
  badWorkbook: 'Excel 文件已损坏，无法读取',
  badDocument: 'Word 文件已损坏，无法读取',
  noTarget: '请指定要查看的报告或文件',
} as const;

export const unsupportedFile = (): DesktopError => new DesktopError('unsupported-file', REVIEW_MSG.unsupported);
export const unreadable = (message: string): DesktopError => new DesktopError('unreadable-file', message);
