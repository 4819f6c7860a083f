/**
 * The allowed name closest to a mistyped one, for "did you mean" hints: the smallest edit
 * distance (case-insensitive), if it is small enough to be a typo rather than another word.
 *
 * @example
 * closestName('quoteAmout', ['quoteAmount', 'everySnapshots']) // 'quoteAmount'
 * closestName('ETHUSD', ['ETH-USD', 'BTC-USD']) // 'ETH-USD'
 * closestName('zzz', ['ETH-USD']) // undefined
 */
export function closestName(written: string, allowed: Iterable<string>): string | undefined {
  const target = written.toLowerCase();
  // A typo changes at most about a third of a name; beyond that the hint misleads.
  const limit = Math.max(2, Math.floor(target.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of allowed) {
    const distance = editDistance(target, name.toLowerCase());
    if (distance < bestDistance && distance <= limit) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** `; did you mean "X"?` or the empty string when nothing is close. */
export function didYouMean(written: string, allowed: Iterable<string>): string {
  const name = closestName(written, allowed);
  return name === undefined ? '' : `; did you mean ${JSON.stringify(name)}?`;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (d[(i - 1) * cols + j] ?? 0) + 1,
        (d[i * cols + j - 1] ?? 0) + 1,
        (d[(i - 1) * cols + j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (d[(i - 2) * cols + j - 2] ?? 0) + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1] ?? 0;
}
