// The few zip reads the reviewer needs (docx, xlsx and SWID packages are zips), with the limits
// checked from the central directory before anything is inflated: entry count, and the ratio of
// the sizes the entries claim to the size of the zip itself (past a grace, like the platform's
// unpacker), and their total.
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { MAX_ZIP_ENTRIES, MAX_ZIP_RATIO, MAX_ZIP_UNCOMPRESSED, REVIEW_MSG, ZIP_RATIO_GRACE_BYTES, unreadable } from './errors.ts';

export interface ZipListing {
  names: string[];
  uncompressed: number;
}

const openZip = (file: string): Promise<ZipFile> => new Promise((resolve, reject) => {
  yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (err, zip) => (err || !zip ? reject(unreadable(REVIEW_MSG.zipBroken)) : resolve(zip)));
});

/** Names of every entry, after the count and ratio checks. */
export async function listZip(file: string, fileSize: number): Promise<ZipListing> {
  const zip = await openZip(file);
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES) throw unreadable(REVIEW_MSG.zipEntries);
    return await new Promise<ZipListing>((resolve, reject) => {
      const names: string[] = [];
      let uncompressed = 0;
      zip.on('entry', (entry: Entry) => {
        names.push(entry.fileName);
        uncompressed += entry.uncompressedSize;
        if (uncompressed > MAX_ZIP_UNCOMPRESSED) return reject(unreadable(REVIEW_MSG.zipTotal));
        if (uncompressed > ZIP_RATIO_GRACE_BYTES && uncompressed > Math.max(fileSize, 1) * MAX_ZIP_RATIO) return reject(unreadable(REVIEW_MSG.zipRatio));
        zip.readEntry();
      });
      zip.on('end', () => resolve({ names, uncompressed }));
      zip.on('error', () => reject(unreadable(REVIEW_MSG.zipBroken)));
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The contents of the entries `wanted` picks (each at most `maxBytes`; yauzl checks the sizes it inflates). */
export async function readZipEntries(file: string, wanted: (name: string) => boolean, maxBytes: number): Promise<Map<string, Buffer>> {
  const zip = await openZip(file);
  const out = new Map<string, Buffer>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (/\/$/.test(entry.fileName) || !wanted(entry.fileName) || entry.uncompressedSize > maxBytes) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(unreadable(REVIEW_MSG.zipBroken));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', () => reject(unreadable(REVIEW_MSG.zipBroken)));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve());
      zip.on('error', () => reject(unreadable(REVIEW_MSG.zipBroken)));
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return out;
}
