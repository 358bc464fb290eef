// Recognises an archive by its first bytes (never by its name). Zip is also recognised by its
// end-of-central-directory record, so self-extracting zips and jars with a preamble work.
import { open } from 'node:fs/promises';

export type ArchiveFormat = 'zip' | 'tar' | 'gzip' | 'bzip2' | 'xz' | '7z';
export type UnsupportedFormat = 'rar' | 'zstd' | 'lzma' | 'lzip' | 'compress' | 'cab' | 'ar';

export type Detected =
  | { kind: 'archive'; format: ArchiveFormat }
  | { kind: 'unsupported'; format: UnsupportedFormat }
  | { kind: 'none' };

const HEAD = 512;
const EOCD_SEARCH = 22 + 0xffff;

const startsWith = (buf: Buffer, bytes: readonly number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

/** A POSIX/GNU (`ustar`) or v7 tar header: magic at 257, or a valid header checksum. */
export function isTarHeader(buf: Buffer): boolean {
  if (buf.length < 512) return false;
  if (buf.toString('latin1', 257, 262) === 'ustar') return true;
  // v7: a name, and the checksum field (octal) equals the header's byte sum with the field as spaces.
  if (buf[0] === 0) return false;
  const field = buf.toString('latin1', 148, 156).replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]{1,7}$/.test(field)) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : buf[i]!;
  return sum === parseInt(field, 8);
}

export function detectBuffer(head: Buffer): Detected {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]) || startsWith(head, [0x50, 0x4b, 0x07, 0x08])) {
    return { kind: 'archive', format: 'zip' };
  }
  if (startsWith(head, [0x1f, 0x8b])) return { kind: 'archive', format: 'gzip' };
  if (startsWith(head, [0x42, 0x5a, 0x68]) && head.length > 3 && head[3]! >= 0x31 && head[3]! <= 0x39) return { kind: 'archive', format: 'bzip2' };
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return { kind: 'archive', format: 'xz' };
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return { kind: 'archive', format: '7z' };
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return { kind: 'unsupported', format: 'rar' };
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return { kind: 'unsupported', format: 'zstd' };
  if (startsWith(head, [0x4c, 0x5a, 0x49, 0x50])) return { kind: 'unsupported', format: 'lzip' };
  if (startsWith(head, [0x5d, 0x00, 0x00])) return { kind: 'unsupported', format: 'lzma' };
  if (startsWith(head, [0x1f, 0x9d])) return { kind: 'unsupported', format: 'compress' };
  if (startsWith(head, [0x4d, 0x53, 0x43, 0x46])) return { kind: 'unsupported', format: 'cab' };
  if (head.toString('latin1', 0, 8) === '!<arch>\n') return { kind: 'unsupported', format: 'ar' };
  if (isTarHeader(head)) return { kind: 'archive', format: 'tar' };
  return { kind: 'none' };
}

/** Reads the head (and, when needed, the tail) of a file and names its format. */
export async function detectFormat(file: string): Promise<Detected> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(HEAD, size));
    await handle.read(head, 0, head.length, 0);
    const found = detectBuffer(head);
    if (found.kind !== 'none' || size < 22) return found;
    // A zip with a preamble (self-extracting, shell-script launchers): look for the EOCD record.
    const length = Math.min(EOCD_SEARCH, size);
    const tail = Buffer.alloc(length);
    await handle.read(tail, 0, length, size - length);
    for (let i = length - 22; i >= 0; i--) {
      if (tail[i] === 0x50 && tail[i + 1] === 0x4b && tail[i + 2] === 0x05 && tail[i + 3] === 0x06) {
        const commentLength = tail.readUInt16LE(i + 20);
        if (i + 22 + commentLength === length) return { kind: 'archive', format: 'zip' };
      }
    }
    return found;
  } finally {
    await handle.close();
  }
}
