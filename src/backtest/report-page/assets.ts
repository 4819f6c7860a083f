import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';

/** The chart libraries inlined into the page: uPlot, and Lightweight Charts for candles. */
export interface UplotAssets {
  readonly js: string;
  readonly css: string;
  readonly candlesJs: string;
}

let cachedAssets: UplotAssets | undefined;

/**
 * The chart libraries' code and style, read once from their packages.
 *
 * @throws QuantaError `QUANTA_REPORT_WRITE_FAILED` when a package cannot be read.
 */
export function uplotAssets(): UplotAssets {
  if (cachedAssets !== undefined) return cachedAssets;
  const require = createRequire(import.meta.url);
  const read = (name: string, file: string): string => {
    try {
      // Resolved from the package's package.json: lightweight-charts exports no dist/ paths.
      const dir = dirname(require.resolve(`${name}/package.json`));
      return readFileSync(join(dir, 'dist', file), 'utf8');
    } catch (error) {
      throw new QuantaError(
        ErrorCodes.REPORT_WRITE_FAILED,
        `backtest report: cannot read the chart library ${name}/dist/${file}`,
        { cause: error, details: [`Run \`npm ci\` so the ${name} package is installed.`] },
      );
    }
  };
  cachedAssets = {
    js: read('uplot', 'uPlot.iife.min.js'),
    css: read('uplot', 'uPlot.min.css'),
    // The standalone production build defines the global LightweightCharts, no module loader.
    candlesJs: read('lightweight-charts', 'lightweight-charts.standalone.production.js'),
  };
  return cachedAssets;
}

/** JSON that is safe inside a `<script>` element whatever strings it carries. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inlined code must not close its element early. */
export function inlineText(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</${element}`, 'gi'), `<\\/${element}`);
}
