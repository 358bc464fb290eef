// Excel / CSV component lists (getCodeType 34, “Excel清单”). The main path is the direct API for
// uploads (`importComponentList`, `buildTemplate`); the extractor also picks such lists up in a
// scanned tree when their file name says so (…组件清单….xlsx / .xlsm / .xls / .csv).

export { importComponentList, MAX_ROWS, MAX_BYTES } from './import.ts';
export type { ComponentListFile, ImportOptions, ImportResult, RowIssue } from './import.ts';
export { buildTemplate, TEMPLATE_FILE_NAME, TEMPLATE_HEADERS, TEMPLATE_DATA_SHEET, TEMPLATE_HELP_SHEET, EXAMPLE_REMARK } from './template.ts';
export { ECOSYSTEMS, lookupEcosystem } from './ecosystems.ts';
export { splitLicenses } from './licenses.ts';

export { excelListExtractor, extractors } from './extractor.ts';
