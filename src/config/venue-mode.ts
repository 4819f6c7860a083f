/**
 * How a config reaches its venue: `embedded` when both APIs are the in-process paper venue,
 * `real` when both are URLs, `mixed` otherwise. A mixed config is refused: a real venue's orders
 * and credentials would be kept as paper state (emptied at every start), and a throwaway wallet
 * key could be generated for it.
 */
export type VenueMode = 'embedded' | 'real' | 'mixed';

/** The mode of `venue.writeUrl` / `venue.readUrl` as written in the config. */
export function venueMode(venue: {
  readonly writeUrl: string;
  readonly readUrl: string;
}): VenueMode {
  const write = venue.writeUrl === 'embedded';
  const read = venue.readUrl === 'embedded';
  if (write && read) return 'embedded';
  return write || read ? 'mixed' : 'real';
}

/** The line that explains a mixed config, after the key path of the `embedded` one. */
export const MIXED_VENUE_MESSAGE =
  '"embedded" must be used for both venue.writeUrl and venue.readUrl or for neither ' +
  '(a real venue keeps its journal and credentials in state.dir; the paper state is emptied at every start)';
