import { mod } from '@noble/curves/abstract/modular';
import { invert } from './mod-inverse.ts';
import { bytesToNumberBE } from '@noble/curves/abstract/utils';
import { secp256k1 } from '@noble/curves/secp256k1';
import {
  addScalarMultiple,
  affineOf,
  emptySum,
  generatorTable,
  hasAffineX,
  PointTable,
} from './point-tables.ts';
import { isCanonicalSignature, recoverDigestPoint } from './recover-signer.ts';

const N = secp256k1.CURVE.n;
/** A signature's r below p − n may be R.x − n (R.x ≥ n, recovery bit 2): never recorded. */
const AMBIGUOUS_R = secp256k1.CURVE.Fp.ORDER - N;

/**
 * Window of a signer's table (point-tables.ts; the generator's is built once and shared): a
 * small one (416 points, about as much work as ten checks), built at its second use (a venue
 * checks a session key many times).
 */
const SIGNER_WINDOW = 5;
/** Signers whose public key is kept: a venue sees a few session keys at a time. */
const KEPT_SIGNERS = 8;

/**
 * Answers kept, by the exact bytes checked (signer, signature, digest): a resent order and a
 * duplicated delivery carry the same bytes, and the answer for the same bytes is the same. The
 * signatures this process made are put here as they are made (`rememberOwnSignature`).
 */
const KEPT_ANSWERS = 1024;
const answers = new Map<string, boolean>();

/** A remembered public key: affine, with its table from its second use. */
interface KnownSigner {
  readonly x: bigint;
  readonly y: bigint;
  table?: PointTable;
}

/** Lowercase address -> its public key, oldest first. */
const signers = new Map<string, KnownSigner>();

function remember(address: string, x: bigint, y: bigint): void {
  if (signers.size >= KEPT_SIGNERS) {
    const oldest = signers.keys().next();
    if (oldest.done !== true) signers.delete(oldest.value);
  }
  signers.set(address, { x, y });
}

/**
 * True when `signature` is canonical and recovers to `signer` (lowercase hex address) over the
 * 32-byte `digest`: the same answer as comparing the address of `recoverDigestPoint(digest,
 * signature)` with `signer`, computed faster for a signer seen before.
 *
 * Why it is the same: recovery gives Q = r⁻¹(s·R − h·G), where R is the point with x = r whose
 * y has the parity v − 27. Q equals the signer's known public key P exactly when
 * R = (h/s)·G + (r/s)·P, which is ECDSA verification with the y parity checked too (a plain
 * verify also accepts the other v). A multiplication by P uses P's tables, built once; the
 * recovery multiplies by a fresh R every time. P is remembered only after a full recovery gave
 * `signer`, so P is the key whose address is `signer` (another key with that address would be
 * a keccak collision). The answer for the exact bytes checked (signature, digest, signer) is
 * kept: a resent order or a duplicated delivery is answered without the arithmetic; so is a
 * signature this process made itself (`rememberOwnSignature`).
 */
export function verifyDigestSigner(digest: Uint8Array, signature: string, signer: string): boolean {
  if (!isCanonicalSignature(signature)) return false;
  const key = answerKey(digest, signature, signer);
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = checkCanonical(digest, signature, signer);
    keep(key, answer);
  }
  return answer;
}

/**
 * Records a signature this process has just made: `signature` over the 32-byte `digest` with
 * the private key whose address is `signer` (lowercase hex), as `signDigest` or viem signs (r ‖
 * low s ‖ v, v − 27 the parity of R's y). `verifyDigestSigner` then accepts those exact bytes
 * for that signer without the arithmetic: the paper venue of `quanta sim` checks, in the same
 * process, every order and registration its bot signs.
 *
 * Why that accepts nothing the full check refuses: such a signature is r = (k·G).x,
 * s = ±k⁻¹(h + r·d) for the key d of `signer` (R = k·G, or −R with v flipped for the low s), so
 * the recovery Q = r⁻¹(s·R − h·G) gives r⁻¹(h + r·d − h)·G = d·G, whose address is `signer`:
 * the check of the same bytes accepts them. The record is keyed by all of them (signature,
 * digest, signer): any other signature, digest or signer is checked in full. Not recorded: a
 * non-canonical signature (the check refuses it before reading any record); an r below p − n,
 * which might be R.x − n, where v alone does not name R (about never: 2⁻¹²⁸); bytes already
 * answered (a record never turns a refusal into an acceptance). Nor is a signer trusted before
 * its first signature passed the full check: that one is checked here. A replayed signature is
 * the venue's replay guard's to refuse, as before.
 */
export function rememberOwnSignature(digest: Uint8Array, signature: string, signer: string): void {
  if (!isCanonicalSignature(signature) || BigInt(`0x${signature.slice(2, 66)}`) < AMBIGUOUS_R)
    return;
  const key = answerKey(digest, signature, signer);
  if (answers.has(key)) return;
  // A signer's first signature is checked in full (and its public key remembered): a signer
  // that makes wrong signatures (a broken table, a wrong recovery bit) is refused by the venue
  // on its first order, not trusted.
  keep(key, signers.has(signer) ? true : checkCanonical(digest, signature, signer));
}

/** The key of an answer: the exact bytes checked. */
function answerKey(digest: Uint8Array, signature: string, signer: string): string {
  // Unambiguous: a canonical signature is 132 characters, the digest's hex has no `|`.
  const hex = Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('hex');
  return `${signature}${hex}|${signer}`;
}

function keep(key: string, answer: boolean): void {
  if (answers.size >= KEPT_ANSWERS) answers.clear();
  answers.set(key, answer);
}

/** {@link verifyDigestSigner} for a canonical `signature`, not kept. */
function checkCanonical(digest: Uint8Array, signature: string, signer: string): boolean {
  const known = signers.get(signer);
  if (known === undefined) {
    const recovered = recoverDigestPoint(digest, signature);
    if (recovered === undefined || recovered.address !== signer) return false;
    const { x, y } = recovered.point.toAffine();
    remember(signer, x, y);
    return true;
  }
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const parity = Number.parseInt(signature.slice(130, 132), 16) - 27;
  // A 32-byte digest is the whole scalar h (noble's bits2int_modN for secp256k1).
  const h = mod(bytesToNumberBE(digest), N);
  const sInverse = invert(s, N);
  known.table ??= new PointTable(known.x, known.y, SIGNER_WINDOW);
  const sum = addScalarMultiple(
    addScalarMultiple(emptySum(), generatorTable(), mod(h * sInverse, N)),
    known.table,
    mod(r * sInverse, N),
  );
  // x = r first (no inversion): a wrong signature ends there.
  if (!hasAffineX(sum, r)) return false;
  return Number(affineOf(sum)!.y & 1n) === parity;
}
