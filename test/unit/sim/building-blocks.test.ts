import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { fillFeeX18, isOnGrid } from '../../../src/money/index.ts';
import { buildSyntheticBook } from '../../../src/sim/synthetic-book.ts';
import { drawShockPpb, nextMidX18, snapPriceToGrid } from '../../../src/sim/price-walk.ts';
import { DEFAULT_SIM_MARKETS, SeededRandom, deriveSeed } from '../../../src/sim/index.ts';
import { T0, engineAt, x18 } from './helpers.ts';
import { SimEngine } from '../../../src/sim/index.ts';

const SIM_DIR = new URL('../../../src/sim/', import.meta.url);

describe('SeededRandom', () => {
  it('repeats its stream for a seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const rng = new SeededRandom(seed);
      return Array.from({ length: 5 }, () => rng.nextUint32());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(2)).not.toEqual(draw(1));
    expect(draw(1).every((n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32)).toBe(true);
  });

  it('draws normal deviates with mean about 0 and standard deviation about 1 (×2^32)', () => {
    const rng = new SeededRandom(123);
    const n = 20_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      const z = Number(rng.nextNormalScaled()) / 2 ** 32;
      sum += z;
      squares += z * z;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.05);
    expect(Math.abs(squares / n - 1)).toBeLessThan(0.05);
  });

  it('derives distinct streams per market and per seed', () => {
    expect(deriveSeed(1, 1)).not.toBe(deriveSeed(1, 3));
    expect(deriveSeed(1, 1)).not.toBe(deriveSeed(2, 1));
    expect(deriveSeed(2 ** 40, 1)).not.toBe(deriveSeed(0, 1));
    expect(deriveSeed(7, 5)).toBe(deriveSeed(7, 5));
  });
});

describe('price walk', () => {
  it('applies a shock with bigint math and snaps to the nearest grid point', () => {
    expect(nextMidX18(x18('3000'), 1_000_000n, 10n ** 12n)).toBe(x18('3003'));
    // 65000 × (1 − 0.000000777) = 64999.949495 → nearest 0.1 is 64999.9
    expect(nextMidX18(x18('65000'), -777n, 10n ** 17n)).toBe(x18('64999.9'));
    expect(snapPriceToGrid(x18('149.99999950'), 6)).toBe(x18('150'));
    // Never below one quantum.
    expect(snapPriceToGrid(1n, 6)).toBe(10n ** 12n);
  });

  it('gives no shock at zero volatility and never more than halves the price', () => {
    const rng = new SeededRandom(1);
    expect(drawShockPpb(rng, 0n)).toBe(0n);
    for (let i = 0; i < 100; i += 1)
      expect(drawShockPpb(rng, 10n ** 9n) >= -(10n ** 9n) / 2n).toBe(true);
  });
});

describe('synthetic book', () => {
  const shape = { halfSpreadPpb: 500_000n, levelStepPpb: 500_000n, depth: 10 };

  it('floors bids and ceils asks to the grid, best first, with the given size', () => {
    const book = buildSyntheticBook(x18('150.123457'), 6, x18('2'), shape);
    // 150.123457 × 0.9995 = 150.0483952715 → 150.048395; × 1.0005 = 150.1985187285 → 150.198519
    expect(book.bids[0]).toEqual({ priceX18: x18('150.048395'), remainingX18: x18('2') });
    expect(book.asks[0]).toEqual({ priceX18: x18('150.198519'), remainingX18: x18('2') });
    expect(book.bids).toHaveLength(10);
    expect(book.asks).toHaveLength(10);
  });

  it('keeps prices distinct and uncrossed when the grid is coarser than the spread', () => {
    // Price grid of 100 (expo −2) around 1000: every 5 bp distance is far below one quantum.
    const book = buildSyntheticBook(x18('1000'), -2, x18('1'), shape);
    expect(book.bids.map((l) => l.priceX18)).toEqual([
      x18('900'),
      x18('800'),
      x18('700'),
      x18('600'),
      x18('500'),
      x18('400'),
      x18('300'),
      x18('200'),
      x18('100'),
    ]);
    expect(book.asks.map((l) => l.priceX18).slice(0, 3)).toEqual([
      x18('1100'),
      x18('1200'),
      x18('1300'),
    ]);
    for (const level of [...book.bids, ...book.asks])
      expect(isOnGrid(level.priceX18, -2)).toBe(true);
  });

  it('never crosses a zero-spread book', () => {
    const book = buildSyntheticBook(x18('3000'), 6, x18('1'), {
      halfSpreadPpb: 0n,
      levelStepPpb: 0n,
      depth: 3,
    });
    expect(book.bids.map((l) => l.priceX18)).toEqual([
      x18('3000'),
      x18('2999.999999'),
      x18('2999.999998'),
    ]);
    expect(book.asks.map((l) => l.priceX18)).toEqual([
      x18('3000.000001'),
      x18('3000.000002'),
      x18('3000.000003'),
    ]);
  });

  it('builds the same books as ever over seeded random mids, grids and shapes', () => {
    // A digest of 600 books (mids from a few units to millions, expos -2..8, spreads and steps
    // up to beyond 100%, so bids of a negative product too): it was taken from the book builder
    // before the level factors were kept per shape, and any change of a level changes it.
    const rng = new SeededRandom(20_261_127);
    const draw = (limit: number): bigint => BigInt(rng.nextUint32() % limit);
    const hash = createHash('sha256');
    for (let n = 0; n < 600; n += 1) {
      const expo = Number(draw(11)) - 2;
      const mid = (draw(1_000_000) + 1n) * 10n ** (draw(7) + 12n) + draw(1_000_000_007);
      const book = buildSyntheticBook(mid, expo, 10n ** 18n + draw(1000), {
        halfSpreadPpb: draw(4) === 0n ? draw(1_200_000_000) : draw(5_000_000),
        levelStepPpb: draw(4) === 0n ? draw(400_000_000) : draw(2_000_000),
        depth: 1 + Number(draw(12)),
      });
      for (const level of [...book.bids, ...book.asks])
        hash.update(`${level.priceX18}:${level.remainingX18};`);
      hash.update('|');
    }
    expect(hash.digest('hex')).toBe(
      '40ac93cfa42fafe67611ace78dd3066768b04985b04eb27e9a2aaf8e08e06060',
    );
  });
});

describe('fillFeeX18', () => {
  it('is notional × fraction, rounded up', () => {
    expect(fillFeeX18(x18('0.5'), x18('3000'), 5n * 10n ** 14n)).toBe(x18('0.75'));
    expect(fillFeeX18(1n, 1n, 1n)).toBe(1n);
    expect(fillFeeX18(x18('1'), x18('1'), 0n)).toBe(0n);
  });
});

describe('default markets', () => {
  it('are the docs/conventions.md §7 rows of test/fixtures/markets.json', () => {
    const fixture = JSON.parse(
      readFileSync(new URL('../../fixtures/markets.json', import.meta.url), 'utf8'),
    ) as { body: { markets: Record<string, unknown>[] } };
    const rows = new Map(fixture.body.markets.map((row) => [row.id, row]));
    for (const market of DEFAULT_SIM_MARKETS) {
      const row = rows.get(market.id);
      expect(row, `market ${market.id}`).toBeDefined();
      expect({
        id: market.id,
        created_at: market.createdAt,
        updated_at: market.updatedAt,
        deleted_at: market.deletedAt,
        Symbol: market.symbol,
        Type: market.type,
        AmtToQtmConversionExpo: market.amountExpo,
        PriceToQtmConversionExpo: market.priceExpo,
        MaxPositionValuex18: String(market.maxPositionValueX18),
        MinAmountx18: String(market.minAmountX18),
        BaseAsset: market.baseAsset,
        QuoteAsset: market.quoteAsset,
        IsActive: market.isActive,
        MakerFeeFractionx18: String(market.makerFeeX18),
        TakerFeeFractionx18: String(market.takerFeeX18),
        InitialMarginFractionx18: String(market.initialMarginX18),
        MaintenanceMarginFractionx18: String(market.maintenanceMarginX18),
      }).toEqual(row);
    }
    expect(DEFAULT_SIM_MARKETS.map((m) => m.id)).toEqual([1, 3, 5, 103, 2]);
  });

  it('start at the documented mids', () => {
    const { engine } = engineAt();
    expect([1, 3, 5, 103, 2].map((id) => engine.midPriceX18(id))).toEqual(
      ['3000', '65000', '150', '250', '3000'].map(x18),
    );
  });
});

describe('engine options', () => {
  it('name the option and the rule when they are wrong', () => {
    const clock = () => T0;
    const cases: [ConstructorParameters<typeof SimEngine>[0], string][] = [
      [{ clock, seed: -1 }, 'sim option seed: expected a non-negative safe integer, got -1'],
      [{ clock, stepMs: 0 }, 'sim option stepMs: expected a positive integer of ms, got 0'],
      [
        { clock, volatilityBps: Number.NaN },
        'sim option volatilityBps: expected a number of basis points from 0 to 1000, got NaN',
      ],
      [
        { clock, levelSize: { 1: '0.0000000001' } },
        'sim option levelSize for market 1 ETH-USD: 0.0000000001 is below one amount quantum 0.000000001',
      ],
      [
        { clock, listings: [{ marketId: 404, activeAtMs: T0 }] },
        'sim option listings: market 404 not found',
      ],
      [
        { clock, markets: [...DEFAULT_SIM_MARKETS, DEFAULT_SIM_MARKETS[0]!] },
        'sim option markets: market id 1 appears twice',
      ],
      [{ clock: () => Number.NaN }, 'sim clock returned NaN: expected ms since the epoch'],
    ];
    for (const [options, message] of cases) {
      expect(() => new SimEngine(options), message).toThrow(
        expect.objectContaining({ code: ErrorCodes.SIM_INVALID_INPUT, message }),
      );
    }
  });

  it('take initial prices and level sizes by id or symbol, and derive sizes from a notional', () => {
    const { engine } = engineAt({
      initialPrices: { 'BTC-USD': '70000', 5: '100' },
      levelSize: { 3: '0.25' },
      levelNotional: '1000',
      spreadBps: 0,
    });
    expect(engine.midPriceX18(3)).toBe(x18('70000'));
    expect(engine.midPriceX18(5)).toBe(x18('100'));
    expect(engine.quotes(3)[0]?.asks[0]?.quantity).toBe('0.25');
    // 1000 / 100 SOL per level; 1000 / 3000 ETH floored to 9 decimals.
    expect(engine.quotes(5)[0]?.asks[0]?.quantity).toBe('10');
    expect(engine.quotes(1)[0]?.asks[0]?.quantity).toBe('0.333333333');
  });
});

describe('source hygiene', () => {
  const files = readdirSync(SIM_DIR).filter((f) => f.endsWith('.ts'));
  // Code only: doc comments may name what the code avoids.
  const sources = files.map((f) => {
    const text = readFileSync(new URL(f, SIM_DIR), 'utf8');
    return [f, text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')] as const;
  });

  it('never uses Math.random, timers or HTTP', () => {
    expect(files).toContain('engine.ts');
    for (const [file, code] of sources) {
      expect(code, file).not.toMatch(
        /Math\.random|Date\.now|setTimeout|setInterval|node:http|fetch\(/,
      );
    }
  });

  it('keeps no state at module level: every cache belongs to an engine (issue 26)', () => {
    for (const [file, code] of sources) {
      expect(code, file).not.toMatch(/^(let|var) /m);
      expect(code, file).not.toMatch(/^(export )?const \w+ = new (Map|Set|WeakMap)\b/m);
    }
  });

  it('imports nothing from venue/: its shared types come from domain/', () => {
    let domainImports = 0;
    for (const [file, code] of sources) {
      const statements = code.match(/^(?:import|export)\b[^;]*?from '[^']+';/gms) ?? [];
      for (const statement of statements) {
        expect(statement, file).not.toMatch(/from '\.\.\/venue\//);
        if (/from '\.\.\/domain\//.test(statement)) domainImports += 1;
      }
    }
    expect(domainImports).toBeGreaterThan(3);
  });
});
