// The archives issue 14 item 5 says are refused before a task starts, written into a folder for the
// desktop's and the platform's tests alike: a text file named .zip, a truncated zip, a zip whose
// stored entry has a flipped byte (bad CRC-32), an empty zip, and a good zip with no manifest.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';

export interface BadArchives {
  fake: string;
  truncated: string;
  badCrc: string;
  empty: string;
  noManifest: string;
}

async function zipOf(entries: Array<{ name: string; text: string }>, compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(Buffer.from(e.text), e.name, { compress, mtime: new Date('2024-01-01T00:00:00Z') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const SOURCE = Array.from({ length: 200 }, (_, i) => `int f${i}(int x) { return x * ${i}; }`).join('\n');

export async function writeBadArchives(dir: string): Promise<BadArchives> {
  const at = (name: string) => path.join(dir, name);
  writeFileSync(at('fake.zip'), 'This is a plain text file that was renamed to .zip.\n'.repeat(20));

  const good = await zipOf([{ name: 'src/main.c', text: SOURCE }, { name: 'README.md', text: '# demo\n' }]);
  writeFileSync(at('truncated.zip'), good.subarray(0, Math.floor(good.length * 0.6)));

  const stored = await zipOf([{ name: 'src/main.c', text: SOURCE }], false);
  const at100 = stored.indexOf(Buffer.from('int f100'));
  stored[at100] = 'J'.charCodeAt(0); // same length, different bytes: only the CRC-32 tells
  writeFileSync(at('bad-crc.zip'), stored);

  // Just the end-of-central-directory record: a zip with nothing in it.
  writeFileSync(at('empty.zip'), Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]));

  writeFileSync(at('no-manifest.zip'), good);
  return { fake: at('fake.zip'), truncated: at('truncated.zip'), badCrc: at('bad-crc.zip'), empty: at('empty.zip'), noManifest: at('no-manifest.zip') };
}
