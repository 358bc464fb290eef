// Typed-array structures of the licence matcher (recognize.ts): shingles are looked up once per
// word of every file scanned and tested against candidate templates many times over, so these
// replace Maps and Sets keyed by numbers (which box and hash each key) on its hot paths.

/**
 * Open-addressing hash table from a shingle (three word ids) to a positive number. Shingles are
 * looked up once per word of every file scanned; a Map keyed by a 51-bit number boxes each key
 * and hashes a double, this hashes three small integers held in one typed array: a slot is four
 * integers (the three ids, then the value, 0 for an empty slot), so a look-up reads one cache line.
 */
export class ShingleTable {
  private slots: Int32Array;
  private mask: number;
  size = 0;
  constructor(capacity = 1 << 16) {
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity * 4);
  }
  /** Offset of the shingle's slot, or of the empty slot where it would go. */
  private slot(a: number, b: number, c: number): number {
    const slots = this.slots;
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & this.mask;
    for (;;) {
      const at = h * 4;
      if (slots[at + 3] === 0 || (slots[at] === a && slots[at + 1] === b && slots[at + 2] === c)) return at;
      h = (h + 1) & this.mask;
    }
  }
  /** The shingle's value, 0 when absent. */
  get(a: number, b: number, c: number): number {
    return this.slots[this.slot(a, b, c) + 3]!;
  }
  set(a: number, b: number, c: number, value: number): void {
    let at = this.slot(a, b, c);
    if (this.slots[at + 3] === 0) {
      // Kept at most half full so probes stay short.
      if (++this.size * 2 > this.mask) {
        this.grow();
        at = this.slot(a, b, c);
      }
      this.slots[at] = a;
      this.slots[at + 1] = b;
      this.slots[at + 2] = c;
    }
    this.slots[at + 3] = value;
  }
  private grow(): void {
    const old = this.slots;
    this.mask = (this.mask + 1) * 2 - 1;
    this.slots = new Int32Array((this.mask + 1) * 4);
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 3] === 0) continue;
      this.slots.set(old.subarray(at, at + 4), this.slot(old[at]!, old[at + 1]!, old[at + 2]!));
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
