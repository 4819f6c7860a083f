const MS_PER_DAY = 24 * 3600 * 1000;
/** Below these, annualized ratios (Sharpe, Sortino) are shown with a caveat. */
const FEW_SAMPLES = 100;
const SHORT_SPAN_MS = 30 * MS_PER_DAY;

/**
 * The caveat of a run's annualized ratios, the one rule for every place that shows them (the
 * HTML report's warnings, the terminal summary): Sharpe and Sortino are scaled to a year from
 * the run's returns, so from fewer than 100 samples or a span under 30 days they are noise.
 *
 * @returns the sentence to show beside them, or undefined when the run is long enough.
 */
export function annualizedCaveat(samples: number, spanMs: number): string | undefined {
  if (samples >= FEW_SAMPLES && spanMs >= SHORT_SPAN_MS) return undefined;
  const days = (spanMs / MS_PER_DAY).toFixed(spanMs < MS_PER_DAY ? 4 : 1);
  return `Annualized figures rest on ${samples} samples over ${days} days: Sharpe and Sortino are scaled to a year from that, so read them as noise (they mean something from about ${FEW_SAMPLES} samples over ${SHORT_SPAN_MS / MS_PER_DAY} days).`;
}
