import { stdout } from 'node:process';
import { Decimal } from 'decimal.js';
import { ErrorCodes, QuantaError } from '../errors/index.ts';
import { formatX18, quantumX18 } from '../money/index.ts';
import { resolveVenue } from '../runtime/embedded-venue.ts';
import { listMarkets } from '../venue/endpoints/index.ts';
import type { Market } from '../domain/index.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';
import { systemTimeoutSignal } from '../clock/timers.ts';

const fraction = (x18: bigint, unit: 'bp' | '%'): string =>
  `${new Decimal(formatX18(x18)).times(unit === 'bp' ? 10_000 : 100).toFixed()}${unit === 'bp' ? ' bp' : '%'}`;

/** The markets as an aligned table with human decimals. */
export function formatMarketsTable(markets: readonly Market[]): string {
  const header = [
    'ID',
    'SYMBOL',
    'TYPE',
    'ACTIVE',
    'MIN AMOUNT',
    'AMOUNT STEP',
    'PRICE STEP',
    'MAX POSITION VALUE',
    'MAKER',
    'TAKER',
    'IMF',
    'MMF',
  ];
  const rows = markets.map((m) => [
    String(m.id),
    m.symbol,
    m.type,
    m.isActive ? 'yes' : 'no',
    formatX18(m.minAmountX18),
    formatX18(quantumX18(m.amountExpo)),
    formatX18(quantumX18(m.priceExpo)),
    formatX18(m.maxPositionValueX18),
    fraction(m.makerFeeX18, 'bp'),
    fraction(m.takerFeeX18, 'bp'),
    fraction(m.initialMarginX18, '%'),
    fraction(m.maintenanceMarginX18, '%'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return (
    [header, ...rows]
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Markets as JSON: bigint fields as decimal integer strings (x18), exactly. */
export function marketsToJson(markets: readonly Market[]): string {
  return `${JSON.stringify(markets, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`;
}

/** `quanta markets`: lists the venue's markets. */
export async function run({ flags }: CommandInput<typeof COMMANDS.markets>): Promise<number> {
  if (flags.type !== undefined && flags.type !== 'PERPETUAL' && flags.type !== 'SPOT') {
    throw new QuantaError(
      ErrorCodes.USAGE,
      `--type must be PERPETUAL or SPOT, got ${JSON.stringify(flags.type)}`,
    );
  }
  const config = await loadConfigFlag(flags.config, process.env);
  const venue = await resolveVenue(config);
  try {
    const markets = await listMarkets(
      { baseUrl: venue.readUrl, timeoutMs: config.venue.timeoutMs },
      {
        type: flags.type,
        signal: systemTimeoutSignal(config.venue.timeoutMs),
      },
    );
    const sorted = [...markets].sort((a, b) => a.id - b.id);
    stdout.write(flags.json ? marketsToJson(sorted) : formatMarketsTable(sorted));
    return 0;
  } finally {
    await venue.embedded?.close();
  }
}
