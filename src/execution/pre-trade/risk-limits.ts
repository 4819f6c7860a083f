import { parseDecimalToX18 } from '../../money/index.ts';
import type { RiskLimits } from './checks.ts';

/** The `risk:` section of a config, as decimal strings in quote units. */
export interface RiskSettings {
  readonly maxOrderNotional: string;
  readonly maxPositionNotional: string;
  readonly dailyLossLimit?: string | undefined;
  readonly capital?: string | undefined;
  /** Per market symbol, the highest leverage an opening order may take the account to. */
  readonly maxLeverage?: Readonly<Record<string, string>> | undefined;
}

/** Risk limits (x18) from the config's `risk:` section: the same for live and backtest. */
export function riskLimitsOf(risk: RiskSettings): RiskLimits {
  return {
    maxOrderNotionalX18: parseDecimalToX18(risk.maxOrderNotional, 'risk.maxOrderNotional'),
    maxPositionNotionalX18: parseDecimalToX18(risk.maxPositionNotional, 'risk.maxPositionNotional'),
    ...(risk.dailyLossLimit === undefined
      ? {}
      : { dailyLossLimitX18: parseDecimalToX18(risk.dailyLossLimit, 'risk.dailyLossLimit') }),
    ...(risk.maxLeverage === undefined
      ? {}
      : {
          maxLeverageX18: new Map(
            Object.entries(risk.maxLeverage).map(([symbol, leverage]) => [
              symbol,
              parseDecimalToX18(leverage, `risk.maxLeverage.${symbol}`),
            ]),
          ),
        }),
  };
}

/** `risk.capital` as x18 (the base of the account's equity), or undefined when not set. */
export function capitalOf(risk: RiskSettings): bigint | undefined {
  return risk.capital === undefined ? undefined : parseDecimalToX18(risk.capital, 'risk.capital');
}
