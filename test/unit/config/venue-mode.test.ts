/**
 * Issue 12, item 4: `embedded` for one venue API and a real URL for the other is a config error
 * (exit 2, file:line:col): the real venue's journal and credentials would otherwise be kept as
 * paper state, emptied at every start, and a throwaway wallet key could be made for it.
 */
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/exit-codes.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { venueMode } from '../../../src/config/venue-mode.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

function configText(writeUrl: string, readUrl: string): string {
  return `venue:
  writeUrl: ${writeUrl}
  readUrl: ${readUrl}
strategies:
  - module: /srv/bot/strategies/dca.ts
    markets: [ETH-USD]
`;
}

function errorOf(text: string): QuantaError {
  try {
    parseConfig(text, 'bot.yaml', '/srv/bot/config', { env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(QuantaError);
    return error as QuantaError;
  }
  return expect.fail('expected a config error');
}

describe('a venue that is embedded for one API only', () => {
  it('real writeUrl with readUrl: embedded is refused at the embedded key', () => {
    const error = errorOf(configText('https://venue.example.com', 'embedded'));
    expect(error.code).toBe(ErrorCodes.CONFIG_INVALID);
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toMatchInlineSnapshot(`
      "invalid config bot.yaml (1 problem):
      bot.yaml:3:12 venue.readUrl: "embedded" must be used for both venue.writeUrl and venue.readUrl or for neither (a real venue keeps its journal and credentials in state.dir; the paper state is emptied at every start)"
    `);
  });

  it('writeUrl: embedded with a real readUrl is refused too', () => {
    const error = errorOf(configText('embedded', 'https://read.example.com'));
    expect(exitCodeFor(error)).toBe(2);
    expect(error.details).toEqual([
      expect.stringMatching(/^bot\.yaml:2:13 venue\.writeUrl: "embedded" must be used for both/),
    ]);
  });

  it('fully embedded and fully real configs are accepted', () => {
    const parse = (w: string, r: string) =>
      parseConfig(configText(w, r), 'bot.yaml', '/srv/bot/config', { env: {} }).venue;
    expect(parse('embedded', 'embedded')).toMatchObject({
      writeUrl: 'embedded',
      readUrl: 'embedded',
    });
    expect(parse('https://w.example.com', 'https://r.example.com')).toMatchObject({
      writeUrl: 'https://w.example.com',
      readUrl: 'https://r.example.com',
    });
  });

  it('venueMode names the three cases', () => {
    expect(venueMode({ writeUrl: 'embedded', readUrl: 'embedded' })).toBe('embedded');
    expect(venueMode({ writeUrl: 'https://a', readUrl: 'https://b' })).toBe('real');
    expect(venueMode({ writeUrl: 'https://a', readUrl: 'embedded' })).toBe('mixed');
    expect(venueMode({ writeUrl: 'embedded', readUrl: 'https://b' })).toBe('mixed');
  });
});
