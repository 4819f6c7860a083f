import { secp256k1 } from '@noble/curves/secp256k1';
import { isCanonicalSignature, recoverDigestSigner } from './recover-signer.ts';

/** A signature's r below p − n may be R.x − n (R.x ≥ n, recovery bit 2): never recorded. */
const AMBIGUOUS_R = secp256k1.CURVE.Fp.ORDER - secp256k1.CURVE.n;

/**
 * Answers kept, by the exact bytes checked (signer, signature, digest): a resent order and a
 * duplicated delivery carry the same bytes, and the answer for the same bytes is the same. The
 * signatures this process made are put here as they are made (`rememberOwnSignature`).
 */
const KEPT_ANSWERS = 1024;
const answers = new Map<string, boolean>();

/**
 * Signers (lowercase hex addresses) a full check accepted a signature of, oldest first: a
 * signature this process records for one of them is kept as accepted without a check.
 */
const checkedSigners = new Set<string>();
/** A venue sees a few session keys at a time. */
const KEPT_SIGNERS = 8;

function remember(signer: string): void {
  if (checkedSigners.size >= KEPT_SIGNERS) {
    const oldest = checkedSigners.values().next();
    if (oldest.done !== true) checkedSigners.delete(oldest.value);
  }
  checkedSigners.add(signer);
}

/**
 * True when `signature` is canonical and recovers to `signer` (lowercase hex address) over the
 * 32-byte `digest` (`recoverDigestSigner`, libsecp256k1's recovery). The answer for the exact
 * bytes checked (signature, digest, signer) is kept: a resent order or a duplicated delivery is
 * answered without the arithmetic; so is a signature this process made itself
 * (`rememberOwnSignature`).
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
  // A signer's first signature is checked in full (and the signer remembered): a signer that
  // makes wrong signatures (a wrong key, a wrong recovery bit) is refused by the venue on its
  // first order, not trusted.
  keep(key, checkedSigners.has(signer) ? true : checkCanonical(digest, signature, signer));
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
  if (recoverDigestSigner(digest, signature) !== signer) return false;
  remember(signer);
  return true;
}
