// Tar entries (POSIX, GNU and v7, pax names) streamed into a Sink with tar-stream.
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import type { Header } from 'tar-stream';
import { decodeName } from './names.ts';
import type { Sink } from './sink.ts';

type TarHeaders = Omit<Header, 'pax' | 'type'> & { pax?: Record<string, string> | null; type?: string | null };

/**
 * Names are read as latin1 (raw bytes) and decoded like zip names, so tars made with GBK names
 * still read; pax names are UTF-8 by definition and kept as they are.
 */
function entryName(value: string | null | undefined, pax: string | undefined, encoding?: string): string {
  if (pax !== undefined) return pax;
  if (!value) return '';
  return decodeName(Buffer.from(value, 'latin1'), false, encoding);
}

export async function readTar(source: Readable, sink: Sink, encoding?: string): Promise<void> {
  // tar-stream is built on streamx: feed it by hand, forwarding a source error.
  const extract = tar.extract({ filenameEncoding: 'latin1', allowUnknownFormat: true } as Parameters<typeof tar.extract>[0]);
  source.on('error', (error) => extract.destroy(error));
  source.pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      const header = entry.header as TarHeaders;
      const name = entryName(header.name, header.pax?.path, encoding);
      // tar-stream names unknown type flags (GNU sparse `S`, volume `V`, ...) null: skipped below.
      const type = header.type ?? 'unknown';
      if (type === 'file' || type === 'contiguous-file') {
        const rel = sink.begin(name);
        if (rel === undefined) {
          entry.resume();
          continue;
        }
        sink.announce(name, header.size ?? 0);
        await sink.file(name, rel, Readable.from(entry, { objectMode: false }), header.mode);
        continue;
      }
      entry.resume();
      if (type === 'pax-global-header' || type === 'pax-header' || type === 'gnu-long-path' || type === 'gnu-long-link-path') continue;
      const rel = sink.begin(name);
      if (rel === undefined) continue;
      const link = entryName(header.linkname, header.pax?.linkpath, encoding);
      if (type === 'directory') await sink.directory(name, rel);
      else if (type === 'symlink') sink.symlink(name, rel, link);
      else if (type === 'link') await sink.hardlink(name, rel, link);
      else if (type === 'unknown') sink.skip(name, '不支持的条目类型，已忽略');
      else sink.skip(name, `设备文件、管道等特殊条目（${type}），已忽略`);
    }
  } finally {
    // On a throw the iterator has destroyed `extract`; stop reading the source too.
    source.unpipe();
    source.destroy();
  }
}
