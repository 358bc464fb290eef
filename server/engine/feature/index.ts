// Feature files: a project's analysable files and the hashes of the rest (README.md beside this file).
export { type FeatureFileEntry, type FeatureImage, type FeatureKind, type FeatureManifest } from './format.ts';
export { writeImageFeatureFile, type WriteImageFeatureOptions } from './image.ts';
export { isFeatureFile, readFeatureFile, type FeatureTree, type ReadFeatureOptions } from './read.ts';
export { writeFeatureFile, type WriteFeatureOptions, type WriteFeatureResult } from './write.ts';
