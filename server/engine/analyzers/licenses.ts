// Licence text recognition (analysis mode 4): full licence texts, standard headers, SPDX tags and
// references by name in every text file (matchers/licenses/recognize.ts).
import type { FileAnalyzer } from './model.ts';

export const licenseTextAnalyzer: FileAnalyzer = {
  kind: 'file',
  name: 'licenses',
  mode: 4,
  async start() {
    const { createLicenseRecognizer } = await import('../matchers/licenses/recognize.ts');
    const recognizer = createLicenseRecognizer();
    return (file) => ({ licenses: recognizer.recognize(file.text, file.name) });
  },
};
