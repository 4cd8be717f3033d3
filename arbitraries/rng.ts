import fc from 'fast-check';

/**
 * A small, fast, seeded pseudo-random generator (sfc32) for the compiled generators. The same seed
 * always gives the same stream, on every platform.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private fcRandom: fc.Random | undefined;

  constructor(seed: number) {
    const s = Math.floor(seed);
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = (s ^ Math.floor(s / 0x100000000)) >>> 0;
    for (let i = 0; i < 15; i++) this.u32();
  }

  /** 32 uniformly random bits, as an unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1) with 53 random bits. */
  float(): number {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }

  /** An integer in [0, n) for 1 <= n <= 2^32. */
  int(n: number): number {
    return Math.floor((this.u32() / 4294967296) * n);
  }

  /** An integer in [lo, hi] (both safe integers). */
  range(lo: number, hi: number): number {
    const span = hi - lo + 1;
    if (span <= 4294967296) return lo + this.int(span);
    return Math.min(hi, lo + Math.floor(this.float() * span));
  }

  /** True with probability 1/n. */
  oneIn(n: number): boolean {
    return this.int(n) === 0;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /**
   * A fast-check `Random` drawing from this stream, for the few schema parts the compiled generators
   * hand to a fast-check arbitrary (regular-expression patterns). Shares this generator's state.
   */
  asFastCheck(): fc.Random {
    if (!this.fcRandom) {
      const source = {
        next: () => this.u32() | 0,
        clone: () => source,
        jump: () => undefined,
        getState: () => [this.a, this.b, this.c, this.d],
      };
      this.fcRandom = new fc.Random(source as unknown as ConstructorParameters<typeof fc.Random>[0]);
    }
    return this.fcRandom;
  }
}

/** A generator of one kind of value from a random stream. */
export type Draw<T = unknown> = (r: Rng) => T;

/** Draw a value from a fast-check arbitrary with this stream (no shrinking). */
export function drawFrom<T>(arb: fc.Arbitrary<T>): Draw<T> {
  return (r) => arb.generate(r.asFastCheck(), undefined).value;
}
