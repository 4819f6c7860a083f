/**
 * The config and package.json `quanta init` writes. The strategy is the shipped example,
 * strategies/ema-cross.ts, copied from the package (package.json `files` ships it).
 */

/** The config, naming the strategy module at `modulePath` (relative to the config). */
export function initConfig(modulePath: string): string {
  return `# Made by \`quanta init\`. Runs on the embedded paper venue: a simulated venue started inside
# the bot, so no account and no key are needed (a throwaway key is generated).
# For a real venue, see config/live.example.yaml in the quanta package.

venue:
  writeUrl: embedded
  readUrl: embedded

state:
  dir: .quanta # journal, credentials; relative to this file

poll:
  intervalMs: 1000

risk:
  maxOrderNotional: '1000' # quote units (USD) per order
  maxPositionNotional: '5000' # per market

strategies:
  - module: ${modulePath}
    markets: [ETH-USD]
    params:
      # EMA(fast)/EMA(slow) crossover on 1-minute bars, RSI filter; first signal after slow + 1 bars.
      fast: 9
      slow: 21
      rsiMax: 70 # no entry while RSI(14) is at or above this
      notional: '100' # USD per entry, a quoted decimal
      stopLoss: '1.5%' # of the entry price; held by the framework
      takeProfit: '3%'
`;
}

/**
 * A package.json for a folder that has none: strategies are ES modules, and quanta is a
 * dependency on the package at `quantaRoot` (a `file:` link: `npm install` downloads nothing, so
 * it works offline, and the project gets that quanta's types).
 */
export function initPackageJson(quantaRoot: string): string {
  const manifest = {
    name: 'my-quanta-bot',
    private: true,
    type: 'module',
    scripts: { start: 'quanta run --config quanta.yaml' },
    dependencies: { quanta: `file:${quantaRoot}` },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
