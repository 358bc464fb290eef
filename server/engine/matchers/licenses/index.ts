// Public surface of licence knowledge and recognition (analysis mode 4). Conflict and
// compatibility checks live next to these modules and are exported from their own files.
export {
  canonicalId, exceptionIdList, isDeprecated, isException, isKnownLicense, LEVEL_UNKNOWN, LICENSE_LEVELS,
  licenseAttributes, licenseHeaders, licenseIds, licenseInfo, licenseLevel, licenseText, replaceDeprecated,
} from './knowledge.ts';
export type { CopyleftStrength, LicenseAttributes, LicenseInfo, LicenseLevel } from './knowledge.ts';
export { expressionIds, expressionLevel, normalizeDeclared, normalizeNode, parseExpression, render } from './expression.ts';
export type { ExpressionNode } from './expression.ts';
export { createLicenseRecognizer } from './recognize.ts';
export type { LicenseMatch, LicenseRecognizer } from './recognize.ts';
