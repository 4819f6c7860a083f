/**
 * The `Date` header of an answer at clock time `ms`: `new Date(ms).toUTCString()`, which names
 * whole seconds, so the string is made once a second and reused for every answer within it (the
 * simulated venue answers about twice a second). A time outside what `Date` can show is
 * formatted as it comes.
 */
export function dateHeaderCache(): (ms: number) => string {
  let cachedSecond = Number.NaN;
  let cachedText = '';
  return (ms) => {
    // `Date` drops the fraction of a ms (toward zero) before it names the second.
    const whole = Math.trunc(ms);
    if (!(Math.abs(whole) <= 8.64e15)) return new Date(ms).toUTCString();
    const second = Math.floor(whole / 1000);
    if (second !== cachedSecond) {
      cachedSecond = second;
      cachedText = new Date(ms).toUTCString();
    }
    return cachedText;
  };
}
