import { expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/index.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';
import { credentialSendMarginMs } from '../../../src/runtime/bot-credentials.ts';

function configWith(venue: string): ReturnType<typeof parseConfig> {
  return parseConfig(
    [
      `venue: { writeUrl: "https://venue.example/w", readUrl: "https://venue.example/r", ${venue} }`,
      'strategies: [{ module: /srv/bot/s.ts, markets: [ETH-USD] }]',
    ].join('\n'),
    'bot.yaml',
    '/srv/bot',
  );
}

it('a credential stops sending orders the request timeout plus the allowed clock skew before its expiry', () => {
  expect(credentialSendMarginMs(configWith('timeoutMs: 2000'))).toBe(7000);
  expect(
    credentialSendMarginMs(configWith('timeoutMs: 2000, credentialTtlMs: 13001, renewMarginMs: 1')),
  ).toBe(7000);
});

it("refuses a credential validity no longer than that margin plus a registration's deadline, pointing at venue.credentialTtlMs", () => {
  let refused: unknown;
  try {
    credentialSendMarginMs(configWith('timeoutMs: 2000, credentialTtlMs: 13000, renewMarginMs: 1'));
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(QuantaError);
  const error = refused as QuantaError;
  expect(error.code).toBe(ErrorCodes.CONFIG_INVALID);
  expect(error.message).toMatch(
    /^bot\.yaml:1:\d+ venue\.credentialTtlMs: expected more than 13000 ms: 4 x venue\.timeoutMs/,
  );
});
