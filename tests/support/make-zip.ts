// Writes small zip files for tests (a war holding jars, a Spring Boot jar with stored jars, a
// jar with a launch script before it): entries deflated, or stored when asked.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipInput {
  /** Entry name -> bytes (strings are UTF-8). */
  entries: Record<string, string | Buffer>;
  /** Entries written without compression (Spring Boot stores its nested jars). */
  stored?: (name: string) => boolean;
  /** Bytes before the zip (an executable jar's launch script); offsets stay relative to the zip. */
  preamble?: string;
}

export function makeZip({ entries, stored = () => false, preamble = '' }: ZipInput): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, body] of Object.entries(entries)) {
    const data = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const store = stored(name);
    const packed = store ? data : deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(0x800, 6); local.writeUInt16LE(store ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14); local.writeUInt32LE(packed.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(0x800, 8); central.writeUInt16LE(store ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16); central.writeUInt32LE(packed.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = Object.keys(entries).length;
  end.writeUInt16LE(count, 8); end.writeUInt16LE(count, 10); end.writeUInt32LE(directory.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([Buffer.from(preamble), ...locals, directory, end]);
}
