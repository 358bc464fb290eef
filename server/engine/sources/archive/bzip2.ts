// A streaming bzip2 decoder with bounded memory, written for untrusted input (it replaces
// unbzip2-stream, which built each block's output as a JavaScript array of numbers, up to 45 MB
// of zeros per 1 KB of input, and decoded every buffered block in one synchronous call).
//
// Memory: one block's compressed bytes (at most ~2.3 MB, kept only while the block is parsed) and
// its symbol vector (an Int32Array of 100,000 x level entries, 3.6 MB at level 9); the output is
// produced on demand, `read(size)` at a time, however much a block expands (bzip2's first
// run-length stage lets one symbol stand for 255 bytes, so a block of 900,000 symbols can expand
// to ~46 MB). `consumed` is the compressed bytes the decoder has actually used: the ratio's
// denominator. Concatenated streams (pbzip2, `cat a.bz2 b.bz2`) are decoded in turn; bytes after
// the last stream that do not start another are ignored, as bzip2 does.
//
// Format: Julian Seward's bzip2 1.0.x (decompress.c), and Joe Tsai's "bzip2 format specification".
import { Readable } from 'node:stream';

export class Bzip2Error extends Error {
  override name = 'Bzip2Error';
}

const BLOCK_MAGIC_HI = 0x314159;
const BLOCK_MAGIC_LO = 0x265359;
const EOS_MAGIC_HI = 0x177245;
const EOS_MAGIC_LO = 0x385090;
const MAX_GROUPS = 6;
const MAX_ALPHA = 258;
const MAX_CODE_LEN = 20;
const MAX_SELECTORS = 18002; // bzip2 1.0.8 reads up to 32767 and ignores the rest
const GROUP_SIZE = 50;
/** The largest a compressed block can be: 900,000 symbols of 20 bits plus its tables. */
const MAX_BLOCK_BYTES = 2_400_000;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** Thrown inside a parse when the buffered input ends before the block does. */
const NEED_INPUT = Symbol('need input');

interface Huffman {
  minLen: number;
  maxLen: number;
  limit: Int32Array;
  base: Int32Array;
  perm: Uint16Array;
}

type Phase = 'stream' | 'block' | 'output' | 'done';

export class Bzip2Decoder {
  // Input: `data[pos..]` unread, `acc` holds `bits` not yet used bits; `base` is data[0]'s offset.
  private data: Buffer = Buffer.alloc(0);
  private pos = 0;
  private acc = 0;
  private bits = 0;
  private base = 0;
  private ended = false;
  /** After a parse ran out of input: buffered bytes (from the parse start) to wait for. */
  private wanted = 0;

  private phase: Phase = 'stream';
  private level = 0;
  private tt = new Int32Array(0);
  private streamCrc = 0;
  private streams = 0;

  // The block being output.
  private blockCrc = 0;
  private crc = 0;
  private tPos = 0;
  private left = 0;
  private last = -1;
  private runLength = 0;
  private copies = 0;

  /** Compressed bytes used so far. */
  get consumed(): number {
    return this.base + this.pos - Math.floor(this.bits / 8);
  }

  /** Whether the decoder can make progress without more input. */
  get needsInput(): boolean {
    return !this.ended && this.phase !== 'done' && this.phase !== 'output' && this.data.length - this.pos < this.wanted;
  }

  get done(): boolean {
    return this.phase === 'done';
  }

  push(chunk: Buffer): void {
    const start = this.pos;
    this.base += start;
    this.data = Buffer.concat([this.data.subarray(start), chunk]);
    this.pos = 0;
  }

  end(): void {
    this.ended = true;
  }

  /**
   * Up to `size` decoded bytes; an empty buffer when more input is needed (see needsInput) or the
   * data is done. Throws Bzip2Error on damaged data.
   */
  read(size: number): Buffer {
    const out = Buffer.allocUnsafe(size);
    let n = 0;
    while (n < size) {
      if (this.phase === 'output') {
        n = this.output(out, n);
        if (this.phase === 'output') break;
        continue;
      }
      if (this.phase === 'done' || this.needsInput) break;
      if (!this.parse()) break;
    }
    return out.subarray(0, n);
  }

  // ---- parsing -------------------------------------------------------------------------------

  /** Runs the next parse step; false when it needs more input (the position is restored). */
  private parse(): boolean {
    const saved = { pos: this.pos, acc: this.acc, bits: this.bits };
    try {
      if (this.phase === 'stream') this.streamHeader();
      else this.blockOrEnd();
      this.wanted = 0;
      return true;
    } catch (error) {
      if (error !== NEED_INPUT) throw error;
      this.pos = saved.pos;
      this.acc = saved.acc;
      this.bits = saved.bits;
      const buffered = this.data.length - this.pos;
      if (this.ended) {
        if (this.phase !== 'stream' || this.streams === 0) throw new Bzip2Error('bzip2 数据不完整');
        // A few bytes after the last stream that cannot start another one: ignored.
        this.phase = 'done';
        return true;
      }
      if (buffered > MAX_BLOCK_BYTES) throw new Bzip2Error('bzip2 数据块过大');
      // Wait for twice as much before trying again: a block is parsed a few times at most.
      this.wanted = Math.max(64 * 1024, buffered * 2);
      return false;
    }
  }

  private need(n: number): void {
    while (this.bits < n) {
      if (this.pos >= this.data.length) throw NEED_INPUT;
      this.acc = ((this.acc << 8) | this.data[this.pos++]!) >>> 0;
      this.bits += 8;
    }
  }

  /** n <= 24 bits, most significant first. */
  private read24(n: number): number {
    if (this.bits < n) this.need(n);
    this.bits -= n;
    return (this.acc >>> this.bits) & ((1 << n) - 1);
  }

  private bit(): number {
    if (this.bits < 1) this.need(1);
    this.bits -= 1;
    return (this.acc >>> this.bits) & 1;
  }

  private read32(): number {
    return ((this.read24(16) << 16) | this.read24(16)) >>> 0;
  }

  private streamHeader(): void {
    if (this.ended && this.data.length - this.pos === 0 && this.streams > 0) {
      this.phase = 'done';
      return;
    }
    const b = this.read24(8);
    const z = this.read24(8);
    const h = this.read24(8);
    const level = this.read24(8) - 0x30;
    if (b !== 0x42 || z !== 0x5a || h !== 0x68 || level < 1 || level > 9) {
      if (this.streams > 0) {
        // Bytes after a complete stream that do not start another: ignored, as bzip2 does.
        this.phase = 'done';
        this.pos = this.data.length;
        this.bits = 0;
        return;
      }
      throw new Bzip2Error('不是 bzip2 数据');
    }
    this.level = level;
    if (this.tt.length < level * 100_000) this.tt = new Int32Array(level * 100_000);
    this.streamCrc = 0;
    this.phase = 'block';
  }

  private blockOrEnd(): void {
    const hi = this.read24(24);
    const lo = this.read24(24);
    if (hi === EOS_MAGIC_HI && lo === EOS_MAGIC_LO) {
      const stored = this.read32();
      if (stored !== this.streamCrc) throw new Bzip2Error('bzip2 数据校验失败（流 CRC）');
      this.bits -= this.bits % 8; // streams start on a byte boundary
      this.streams++;
      this.phase = 'stream';
      return;
    }
    if (hi !== BLOCK_MAGIC_HI || lo !== BLOCK_MAGIC_LO) throw new Bzip2Error('bzip2 数据块标记无效');
    this.block();
  }

  /** Parses one block into `tt` and prepares its output. */
  private block(): void {
    const blockCrc = this.read32();
    if (this.bit()) throw new Bzip2Error('不支持旧版随机化的 bzip2 数据块');
    const origPtr = this.read24(24);

    // Symbol map: which byte values occur.
    const seqToUnseq = new Uint8Array(256);
    let inUse = 0;
    const used16 = this.read24(16);
    for (let i = 0; i < 16; i++) {
      if (!(used16 & (0x8000 >>> i))) continue;
      const bits = this.read24(16);
      for (let j = 0; j < 16; j++) if (bits & (0x8000 >>> j)) seqToUnseq[inUse++] = i * 16 + j;
    }
    if (inUse === 0) throw new Bzip2Error('bzip2 数据块无符号表');
    const alphaSize = inUse + 2;

    const groups = this.read24(3);
    if (groups < 2 || groups > MAX_GROUPS) throw new Bzip2Error('bzip2 哈夫曼表数量无效');
    const selectorCount = this.read24(15);
    if (selectorCount < 1) throw new Bzip2Error('bzip2 选择子数量无效');
    const selectors = new Uint8Array(Math.min(selectorCount, MAX_SELECTORS));
    const mtfGroups = [0, 1, 2, 3, 4, 5];
    for (let i = 0; i < selectorCount; i++) {
      let j = 0;
      while (this.bit()) if (++j >= groups) throw new Bzip2Error('bzip2 选择子无效');
      const value = mtfGroups[j]!;
      for (; j > 0; j--) mtfGroups[j] = mtfGroups[j - 1]!;
      mtfGroups[0] = value;
      if (i < MAX_SELECTORS) selectors[i] = value;
    }

    const tables: Huffman[] = [];
    const lengths = new Uint8Array(MAX_ALPHA);
    for (let t = 0; t < groups; t++) {
      let length = this.read24(5);
      for (let i = 0; i < alphaSize; i++) {
        for (;;) {
          if (length < 1 || length > MAX_CODE_LEN) throw new Bzip2Error('bzip2 编码长度无效');
          if (!this.bit()) break;
          length += this.bit() ? -1 : 1;
        }
        lengths[i] = length;
      }
      tables.push(decodeTable(lengths, alphaSize));
    }

    // Huffman-coded MTF/RLE2 symbols into tt (the BWT's last column).
    const tt = this.tt;
    const max = this.level * 100_000;
    const counts = new Int32Array(256);
    const mtf = new Uint8Array(256);
    for (let i = 0; i < 256; i++) mtf[i] = i;
    const eob = inUse + 1;
    let count = 0;
    let group = -1;
    let groupLeft = 0;
    let table = tables[0]!;
    let runSymbols = 0;
    let run = 0;
    let runWeight = 1;
    for (;;) {
      if (groupLeft === 0) {
        if (++group >= selectors.length) throw new Bzip2Error('bzip2 选择子不足');
        table = tables[selectors[group]!]!;
        groupLeft = GROUP_SIZE;
      }
      groupLeft--;
      let length = table.minLen;
      let code = this.read24(length);
      while (code > table.limit[length]!) {
        if (++length > table.maxLen) throw new Bzip2Error('bzip2 哈夫曼编码无效');
        code = (code << 1) | this.bit();
      }
      const index = code - table.base[length]!;
      if (index < 0 || index >= MAX_ALPHA) throw new Bzip2Error('bzip2 哈夫曼编码无效');
      const symbol = table.perm[index]!;
      if (symbol <= 1) {
        // RUNA / RUNB: a bijective base-2 run length of the front symbol.
        run += (symbol + 1) * runWeight;
        runWeight *= 2;
        if (++runSymbols > 21) throw new Bzip2Error('bzip2 游程过长');
        continue;
      }
      if (runSymbols) {
        if (count + run > max) throw new Bzip2Error('bzip2 数据块超过声明的大小');
        const byte = seqToUnseq[mtf[0]!]!;
        tt.fill(byte, count, count + run);
        counts[byte]! += run;
        count += run;
        runSymbols = 0;
        run = 0;
        runWeight = 1;
      }
      if (symbol === eob) break;
      if (count >= max) throw new Bzip2Error('bzip2 数据块超过声明的大小');
      const at = symbol - 1;
      const value = mtf[at]!;
      mtf.copyWithin(1, 0, at);
      mtf[0] = value;
      const byte = seqToUnseq[value]!;
      tt[count++] = byte;
      counts[byte]!++;
    }
    if (origPtr >= count) throw new Bzip2Error('bzip2 数据块起点无效');

    // Inverse BWT: link each position to the next in the original order (high 24 bits).
    const starts = new Int32Array(256);
    for (let i = 0, sum = 0; i < 256; i++) {
      starts[i] = sum;
      sum += counts[i]!;
    }
    for (let i = 0; i < count; i++) {
      const byte = tt[i]! & 0xff;
      tt[starts[byte]!]! |= i << 8;
      starts[byte]!++;
    }
    this.blockCrc = blockCrc;
    this.crc = 0xffffffff;
    this.tPos = tt[origPtr]! >>> 8;
    this.left = count;
    this.last = -1;
    this.runLength = 0;
    this.copies = 0;
    this.phase = 'output';
  }

  // ---- output --------------------------------------------------------------------------------

  /** Writes the current block's bytes into out[n..]; leaves phase 'output' while some remain. */
  private output(out: Buffer, start: number): number {
    const tt = this.tt;
    const size = out.length;
    let n = start;
    let { crc, tPos, left, last, runLength, copies } = this;
    while (n < size) {
      if (copies > 0) {
        const k = Math.min(copies, size - n);
        out.fill(last, n, n + k);
        for (let i = 0; i < k; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ last) & 0xff]!) >>> 0;
        n += k;
        copies -= k;
        continue;
      }
      if (left === 0) break;
      const entry = tt[tPos]!;
      const byte = entry & 0xff;
      tPos = entry >>> 8;
      left--;
      if (runLength === 4) {
        // After four equal bytes, the next one is how many more copies follow.
        copies = byte;
        runLength = 0;
        continue;
      }
      out[n++] = byte;
      crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
      if (byte === last) runLength++;
      else {
        last = byte;
        runLength = 1;
      }
    }
    Object.assign(this, { crc, tPos, left, last, runLength, copies });
    if (left === 0 && copies === 0) {
      const final = (crc ^ 0xffffffff) >>> 0;
      if (final !== this.blockCrc) throw new Bzip2Error('bzip2 数据校验失败（数据块 CRC）');
      this.streamCrc = (((this.streamCrc << 1) | (this.streamCrc >>> 31)) ^ final) >>> 0;
      this.phase = 'block';
    }
    return n;
  }
}

/** bzip2's canonical Huffman decoding tables (hbCreateDecodeTables). */
function decodeTable(lengths: Uint8Array, alphaSize: number): Huffman {
  let minLen = MAX_CODE_LEN;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    minLen = Math.min(minLen, lengths[i]!);
    maxLen = Math.max(maxLen, lengths[i]!);
  }
  const perm = new Uint16Array(MAX_ALPHA);
  let pp = 0;
  for (let length = minLen; length <= maxLen; length++) for (let s = 0; s < alphaSize; s++) if (lengths[s] === length) perm[pp++] = s;
  const base = new Int32Array(MAX_CODE_LEN + 2);
  for (let s = 0; s < alphaSize; s++) base[lengths[s]! + 1]!++;
  for (let i = 1; i < base.length; i++) base[i]! += base[i - 1]!;
  const limit = new Int32Array(MAX_CODE_LEN + 2);
  let vec = 0;
  for (let i = minLen; i <= maxLen; i++) {
    vec += base[i + 1]! - base[i]!;
    limit[i] = vec - 1;
    vec <<= 1;
  }
  for (let i = minLen + 1; i <= maxLen; i++) base[i] = ((limit[i - 1]! + 1) << 1) - base[i]!;
  return { minLen, maxLen, limit, base, perm };
}

/** Output chunks: small enough that a limit is checked every 64 KiB of decoded data. */
const CHUNK = 64 * 1024;

/**
 * The decoded stream of bzip2 data read from `source`: decodes only while the consumer reads
 * (backpressure), 64 KiB at a time; `consumed()` is the compressed bytes used so far.
 */
export function bunzip2(source: Readable): { output: Readable; consumed: () => number } {
  const decoder = new Bzip2Decoder();
  const input = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  async function* decode(): AsyncGenerator<Buffer> {
    for (;;) {
      const chunk = decoder.read(CHUNK);
      if (chunk.length) {
        yield chunk;
        continue;
      }
      if (decoder.done) return;
      if (!decoder.needsInput) throw new Bzip2Error('bzip2 解码停滞');
      const next = await input.next();
      if (next.done) decoder.end();
      else decoder.push(next.value);
    }
  }
  const output = Readable.from(decode(), { objectMode: false, highWaterMark: CHUNK });
  output.on('close', () => {
    if (!source.destroyed) source.destroy();
  });
  return { output, consumed: () => decoder.consumed };
}
