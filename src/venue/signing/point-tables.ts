import { invert } from './mod-inverse.ts';
import { secp256k1 } from '@noble/curves/secp256k1';

/**
 * Sums of multiples of secp256k1 points that have tables (the generator, a signer's key seen
 * before): what `verifyDigestSigner` computes for every order. noble's points add with complete
 * projective formulas and reduce every product with `%`; here a table holds affine points, a
 * sum is built in Jacobian coordinates by mixed additions (a doubling only when a sum meets its
 * addend), and products are reduced with the shape of p (2²⁵⁶ − 2³² − 977). Same results (point-tables.test.ts in
 * test/unit/venue/signing compares them with noble's), in about half the CPU time a check.
 */

const P = secp256k1.CURVE.Fp.ORDER;
const MASK_256 = (1n << 256n) - 1n;
/** 2²⁵⁶ mod p. */
const FOLD = (1n << 32n) + 977n;
const ENDOMORPHISM = secp256k1.CURVE.endo;
if (ENDOMORPHISM === undefined) throw new Error('secp256k1 without its endomorphism');
const { beta: BETA, splitScalar } = ENDOMORPHISM;
/** The halves of a split scalar are at most 2¹²⁸ (noble's splitScalar checks it). */
const HALF_BITS = 129;

/** `x` mod p for 0 ≤ x < 2⁶⁰⁰ (a product, times a small factor): two folds leave x < 2p. */
function reduce(x: bigint): bigint {
  let y = (x & MASK_256) + (x >> 256n) * FOLD;
  y = (y & MASK_256) + (y >> 256n) * FOLD;
  return y >= P ? y - P : y;
}

function mul(a: bigint, b: bigint): bigint {
  return reduce(a * b);
}

function add(a: bigint, b: bigint): bigint {
  const sum = a + b;
  return sum >= P ? sum - P : sum;
}

function sub(a: bigint, b: bigint): bigint {
  const difference = a - b;
  return difference < 0n ? difference + P : difference;
}

/** A point in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity. */
interface Jacobian {
  readonly X: bigint;
  readonly Y: bigint;
  readonly Z: bigint;
}

const INFINITY: Jacobian = { X: 1n, Y: 1n, Z: 0n };

function double(a: Jacobian): Jacobian {
  if (a.Z === 0n || a.Y === 0n) return INFINITY;
  const yy = mul(a.Y, a.Y);
  const s = reduce(4n * a.X * yy);
  const m = reduce(3n * a.X * a.X);
  const x = sub(mul(m, m), add(s, s));
  const y = sub(mul(m, sub(s, x)), reduce(8n * yy * yy));
  return { X: x, Y: y, Z: reduce(2n * a.Y * a.Z) };
}

/** `a` + the affine point (x, y), `a` in Jacobian coordinates (any two points). */
function addAffine(a: Jacobian, x: bigint, y: bigint): Jacobian {
  if (a.Z === 0n) return { X: x, Y: y, Z: 1n };
  const zz = mul(a.Z, a.Z);
  const h = sub(mul(x, zz), a.X);
  const r = sub(mul(y, mul(a.Z, zz)), a.Y);
  if (h === 0n) return r === 0n ? double(a) : INFINITY;
  const hh = mul(h, h);
  const hhh = mul(h, hh);
  const v = mul(a.X, hh);
  const x3 = sub(sub(mul(r, r), hhh), add(v, v));
  return { X: x3, Y: sub(mul(r, sub(v, x3)), mul(a.Y, hhh)), Z: mul(a.Z, h) };
}

/** `a` + `b`, both Jacobian (for building tables). */
function addJacobian(a: Jacobian, b: Jacobian): Jacobian {
  if (b.Z === 0n) return a;
  if (a.Z === 0n) return b;
  const z1z1 = mul(a.Z, a.Z);
  const z2z2 = mul(b.Z, b.Z);
  const u1 = mul(a.X, z2z2);
  const s1 = mul(a.Y, mul(b.Z, z2z2));
  const h = sub(mul(b.X, z1z1), u1);
  const r = sub(mul(b.Y, mul(a.Z, z1z1)), s1);
  if (h === 0n) return r === 0n ? double(a) : INFINITY;
  const hh = mul(h, h);
  const hhh = mul(h, hh);
  const v = mul(u1, hh);
  const x3 = sub(sub(mul(r, r), hhh), add(v, v));
  return {
    X: x3,
    Y: sub(mul(r, sub(v, x3)), mul(s1, hhh)),
    Z: mul(mul(a.Z, b.Z), h),
  };
}

/** The affine coordinates of every point (none at infinity), with one inversion for all. */
function toAffine(points: readonly Jacobian[]): { xs: bigint[]; ys: bigint[] } {
  const prefix: bigint[] = [];
  let product = 1n;
  for (const point of points) {
    prefix.push(product);
    product = mul(product, point.Z);
  }
  let inverse = invert(product, P);
  const xs: bigint[] = new Array<bigint>(points.length);
  const ys: bigint[] = new Array<bigint>(points.length);
  for (let i = points.length - 1; i >= 0; i--) {
    const point = points[i]!;
    const zInverse = mul(inverse, prefix[i]!);
    inverse = mul(inverse, point.Z);
    const zz = mul(zInverse, zInverse);
    xs[i] = mul(point.X, zz);
    ys[i] = mul(point.Y, mul(zz, zInverse));
  }
  return { xs, ys };
}

/**
 * A point's table for signed windows of `window` bits: entry (i, d) is d·2^(window·i)·Q for
 * d = 1..2^(window−1), affine, with ψ(entry) = (β·x, y) = λ·entry beside it (the
 * endomorphism: a scalar is split in two halves of 129 bits at most).
 */
export class PointTable {
  readonly #window: number;
  readonly #half: number;
  readonly #windows: number;
  readonly #xs: bigint[];
  readonly #ys: bigint[];
  readonly #psiXs: bigint[];

  /** The table of the affine point (x, y), which must be on the curve and not at infinity. */
  constructor(x: bigint, y: bigint, window: number) {
    this.#window = window;
    this.#half = 2 ** (window - 1);
    this.#windows = Math.ceil((HALF_BITS + 1) / window);
    const points: Jacobian[] = [];
    let base: Jacobian = { X: x, Y: y, Z: 1n };
    for (let i = 0; i < this.#windows; i++) {
      let multiple = base;
      points.push(multiple);
      for (let d = 2; d <= this.#half; d++) {
        multiple = addJacobian(multiple, base);
        points.push(multiple);
      }
      base = double(multiple);
    }
    const affine = toAffine(points);
    this.#xs = affine.xs;
    this.#ys = affine.ys;
    this.#psiXs = this.#xs.map((value) => mul(value, BETA));
  }

  /** `sum` + s·k·Q, or + s·k·ψ(Q) when `psi` (s = −1 when `negative`), 0 ≤ k ≤ 2¹²⁹. */
  addMultiple(sum: Jacobian, k: bigint, negative: boolean, psi: boolean): Jacobian {
    const digits = this.#signedDigits(k);
    let total = sum;
    for (let i = 0; i < digits.length; i++) {
      const digit = digits[i] as number;
      if (digit !== 0) total = this.#addEntry(total, i, digit, negative, psi);
    }
    return total;
  }

  /**
   * {@link addMultiple} for a secret k (a signature's nonce): every window costs one mixed
   * addition whatever its digit, a zero digit adding an entry to `sums.decoy` (a sum thrown
   * away, as noble's constant-time wNAF does), and no window is skipped once k runs out. BigInt
   * arithmetic itself is not constant-time (noble says as much of its own); this keeps the
   * count of additions from telling the digits. Not their cost: the first addition to
   * `sums.real` finds it at infinity and does no arithmetic, so its window (that of k's first
   * nonzero digit) is cheaper than the others; noble's complete formulas cost the same there.
   */
  addSecretMultiple(sums: SecretSums, k: bigint, negative: boolean, psi: boolean): SecretSums {
    const digits = this.#signedDigits(k);
    let { real, decoy } = sums;
    for (let i = 0; i < digits.length; i++) {
      const digit = digits[i] as number;
      if (digit === 0) decoy = this.#addEntry(decoy, i, 1, false, psi);
      else real = this.#addEntry(real, i, digit, negative, psi);
    }
    return { real, decoy };
  }

  /**
   * k (0 ≤ k ≤ 2¹²⁹) as one signed digit per window, each in −half..half, low window first:
   * k = Σ digit·2^(window·i). The scalar is never quoted (it may be a nonce).
   */
  #signedDigits(k: bigint): Int32Array {
    const size = BigInt(this.#window);
    const mask = (1n << size) - 1n;
    const full = 2 * this.#half;
    const digits = new Int32Array(this.#windows);
    let rest = k;
    for (let i = 0; i < this.#windows; i++) {
      let digit = Number(rest & mask);
      rest >>= size;
      if (digit > this.#half) {
        digit -= full;
        rest += 1n;
      }
      digits[i] = digit;
    }
    if (rest !== 0n) throw new Error(`point table: scalar longer than ${HALF_BITS} bits`);
    return digits;
  }

  /** `sum` + digit·(window i's base), of Q or ψ(Q), negated when `negative`; digit ≠ 0. */
  #addEntry(sum: Jacobian, i: number, digit: number, negative: boolean, psi: boolean): Jacobian {
    const at = i * this.#half + Math.abs(digit) - 1;
    const x = (psi ? this.#psiXs : this.#xs)[at] as bigint;
    const y = this.#ys[at] as bigint;
    return addAffine(sum, x, digit < 0 !== negative ? sub(0n, y) : y);
  }
}

/** The sum a secret multiple goes to, and the decoy its zero digits go to (`addSecretMultiple`). */
interface SecretSums {
  readonly real: Jacobian;
  readonly decoy: Jacobian;
}

/** The generator's table (window 10: 6,656 points, tens of ms), built at its first use. */
let generator: PointTable | undefined;

/** The generator's table, shared by signature checks and signing. */
export function generatorTable(): PointTable {
  generator ??= new PointTable(secp256k1.CURVE.Gx, secp256k1.CURVE.Gy, 10);
  return generator;
}

/**
 * k·G, affine, for a secret 1 ≤ k < n (a signature's nonce): through the generator's table and
 * the endomorphism like {@link addScalarMultiple}, with a mixed addition in every window of
 * both halves (`addSecretMultiple`), and one inversion for the result and the decoy together.
 * Same point as noble's `multiply` (point-tables.test.ts), in about half the time.
 */
export function secretGeneratorMultiple(k: bigint): { readonly x: bigint; readonly y: bigint } {
  const table = generatorTable();
  const { k1neg, k1, k2neg, k2 } = splitScalar(k);
  const start: SecretSums = {
    real: INFINITY,
    decoy: { X: secp256k1.CURVE.Gx, Y: secp256k1.CURVE.Gy, Z: 1n },
  };
  const { real, decoy } = table.addSecretMultiple(
    table.addSecretMultiple(start, k1, k1neg, false),
    k2,
    k2neg,
    true,
  );
  if (real.Z === 0n) throw new Error('point table: a secret multiple of 0 mod n');
  // The decoy at infinity (a sum that cancelled, about never): the result alone.
  const points = decoy.Z === 0n ? [real] : [real, decoy];
  const { xs, ys } = toAffine(points);
  return { x: xs[0]!, y: ys[0]! };
}

/** `scalar`·Q (0 ≤ scalar < n) added to `sum`, through Q's table and the endomorphism. */
export function addScalarMultiple(sum: Jacobian, table: PointTable, scalar: bigint): Jacobian {
  const { k1neg, k1, k2neg, k2 } = splitScalar(scalar);
  return table.addMultiple(table.addMultiple(sum, k1, k1neg, false), k2, k2neg, true);
}

/** The point at infinity: the empty sum. */
export function emptySum(): Jacobian {
  return INFINITY;
}

/** The affine (x, y) of `sum`, or undefined at infinity. */
export function affineOf(sum: Jacobian): { readonly x: bigint; readonly y: bigint } | undefined {
  if (sum.Z === 0n) return undefined;
  const zInverse = invert(sum.Z, P);
  const zz = mul(zInverse, zInverse);
  return { x: mul(sum.X, zz), y: mul(sum.Y, mul(zz, zInverse)) };
}

/** Whether the affine x of `sum` is `x` (0 ≤ x < p), without an inversion; false at infinity. */
export function hasAffineX(sum: Jacobian, x: bigint): boolean {
  return sum.Z !== 0n && mul(x, mul(sum.Z, sum.Z)) === sum.X;
}

export type { Jacobian };
