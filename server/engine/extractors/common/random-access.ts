// Random access to an input without reading it whole: executables and Java archives are read a
// few header and table bytes at a time, whatever their size.
import type { InputFile } from '../../model.ts';

export interface RandomAccess {
  size: number;
  /** Up to `length` bytes at `position`; fewer at the end, none past it. */
  read(position: number, length: number): Promise<Buffer>;
}

export function bufferAccess(buffer: Buffer): RandomAccess {
  return {
    size: buffer.length,
    read: async (position, length) => buffer.subarray(Math.max(0, position), Math.max(0, Math.min(buffer.length, position + length))),
  };
}

/** The file read in place when its source allows it, else read whole once. */
export async function fileAccess(file: InputFile): Promise<RandomAccess> {
  if (!file.readAt) return bufferAccess(await file.read());
  const readAt = file.readAt.bind(file);
  return {
    size: file.size,
    read: (position, length) => (position >= file.size || length <= 0 ? Promise.resolve(Buffer.alloc(0)) : readAt(position, Math.min(length, file.size - position))),
  };
}

/** A window [offset, offset + size) of another source, itself addressed from 0 (a stored zip entry). */
export function sliceAccess(source: RandomAccess, offset: number, size: number): RandomAccess {
  return {
    size,
    read: (position, length) => {
      const start = Math.max(0, position);
      const end = Math.min(size, position + length);
      return end <= start ? Promise.resolve(Buffer.alloc(0)) : source.read(offset + start, end - start);
    },
  };
}
