// Typed-array structures of the licence matcher (recognize.ts): shingles are looked up once per
// word of every file scanned and tested against candidate templates many times over, so these
// replace Maps and Sets keyed by numbers (which box and hash each key) on its hot paths.

/**
 * Open-addressing hash table from a shingle (three word ids) to a positive number. Shingles are
 * looked up once per word of every file scanned; a Map keyed by a 51-bit number boxes each key
 * and hashes a double, this hashes three small integers held in typed arrays.
 */
export class ShingleTable {
  private keys: Int32Array;
  private values: Int32Array;
  private mask: number;
  size = 0;
  constructor(capacity = 1 << 16) {
    this.mask = capacity - 1;
    this.keys = new Int32Array(capacity * 3);
    this.values = new Int32Array(capacity);
  }
  private slot(a: number, b: number, c: number): number {
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & this.mask;
    for (;;) {
      if (this.values[h] === 0) return h;
      const k = h * 3;
      if (this.keys[k] === a && this.keys[k + 1] === b && this.keys[k + 2] === c) return h;
      h = (h + 1) & this.mask;
    }
  }
  /** The shingle's value, 0 when absent. */
  get(a: number, b: number, c: number): number {
    return this.values[this.slot(a, b, c)]!;
  }
  set(a: number, b: number, c: number, value: number): void {
    let h = this.slot(a, b, c);
    if (this.values[h] === 0) {
      // Kept at most half full so probes stay short.
      if (++this.size * 2 > this.mask) {
        this.grow();
        h = this.slot(a, b, c);
      }
      this.keys[h * 3] = a;
      this.keys[h * 3 + 1] = b;
      this.keys[h * 3 + 2] = c;
    }
    this.values[h] = value;
  }
  private grow(): void {
    const { keys, values } = this;
    this.mask = values.length * 2 - 1;
    this.keys = new Int32Array(values.length * 6);
    this.values = new Int32Array(values.length * 2);
    for (let h = 0; h < values.length; h++) {
      if (values[h] === 0) continue;
      const to = this.slot(keys[h * 3]!, keys[h * 3 + 1]!, keys[h * 3 + 2]!);
      this.keys.set(keys.subarray(h * 3, h * 3 + 3), to * 3);
      this.values[to] = values[h]!;
    }
  }
}

/**
 * Set membership by generation stamps over shingle ids: mark a set, then test ids in O(1) with a
 * typed-array read, instead of hashing every tested shingle into a Set.
 */
export class Marks {
  private stamps = new Uint32Array(1024);
  private stamp = 0;
  /** Starts a new, empty set over ids below `size`. */
  clear(size: number): void {
    if (this.stamps.length < size) this.stamps = new Uint32Array(Math.max(size, this.stamps.length * 2));
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }
  add(id: number): void {
    this.stamps[id] = this.stamp;
  }
  has(id: number): boolean {
    return this.stamps[id] === this.stamp;
  }
}
