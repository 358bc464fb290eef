// Package files built by tests the way their tools pack them, around real metadata.
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** A ustar archive of `entries`; `cut` drops the two end-of-archive blocks (abuild-tar --cut). */
export async function tarOf(entries: Array<[string, Buffer]>, cut: boolean): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => chunks.push(c as Buffer));
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const [name, body] of entries) pack.entry({ name, size: body.length, mode: 0o644, uname: 'root', gname: 'root' }, body);
  pack.finalize();
  await done;
  const all = Buffer.concat(chunks);
  return cut ? all.subarray(0, all.length - 1024) : all;
}

/** An Alpine package as abuild packs it: signature and control tar segments without end blocks, then the data tar, each gzipped. */
export async function alpinePackage(pkginfo: Buffer, options: { signature?: Buffer; data?: Buffer } = {}): Promise<Buffer> {
  const signature = await tarOf([['.SIGN.RSA.alpine-devel@lists.alpinelinux.org-6165ee59.rsa.pub', options.signature ?? Buffer.alloc(512, 7)]], true);
  const control = await tarOf([['.PKGINFO', pkginfo]], true);
  const data = await tarOf([['usr/bin/strace', options.data ?? Buffer.from('\x7fELF\n')]], false);
  return Buffer.concat([gzipSync(signature), gzipSync(control), gzipSync(data)]);
}
