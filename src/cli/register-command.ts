import { systemClock } from '../clock/clock.ts';
import { stdout } from 'node:process';
import { CredentialManager } from '../account/credential-manager.ts';
import { CredentialStore } from '../account/credential-store.ts';
import { readWalletKey } from '../account/wallet-key.ts';
import { credentialSendMarginMs } from '../runtime/bot-credentials.ts';
import { resolveVenue } from '../runtime/embedded-venue.ts';
import { signingDomainOf } from '../runtime/signing-domain.ts';
import { lockStateDir, type StateLock } from '../runtime/state-lock.ts';
import { statePaths } from '../runtime/state-paths.ts';
import { createLogger } from '../log/logger.ts';
import type { CommandInput } from './command-spec.ts';
import type { COMMANDS } from './commands.ts';
import { loadConfigFlag } from './common.ts';
import { systemTimeoutSignal } from '../clock/timers.ts';
import { httpVenueRegistrar } from '../venue/http-venue-client.ts';

/**
 * `quanta register`: registers the subaccount (or reuses valid stored credentials) and prints
 * the service key and expiry. Never the secret: it stays in the 0600 credential file.
 */
export async function run({ flags }: CommandInput<typeof COMMANDS.register>): Promise<number> {
  const config = await loadConfigFlag(flags.config, process.env);
  const venue = await resolveVenue(config);
  // A running bot's state dir is its own: registering here would empty or overwrite its files.
  let stateLock: StateLock | undefined;
  try {
    stateLock = lockStateDir(config.state.dir);
    const paths = statePaths(config.state.dir, config.venue);
    const manager = new CredentialManager({
      store: new CredentialStore(paths.credentials),
      venueUrl: venue.writeUrl,
      venue: httpVenueRegistrar({ baseUrl: venue.writeUrl, timeoutMs: config.venue.timeoutMs }),
      brokerId: config.venue.brokerId,
      subaccountIndex: config.venue.subaccount,
      chainId: config.venue.chainId,
      domain: signingDomainOf(config),
      headerPrefix: config.venue.headerPrefix,
      walletPrivateKey: readWalletKey(
        config.wallet.privateKeyEnv,
        process.env,
        paths.paperWalletKey,
      ),
      renewMarginMs: config.venue.renewMarginMs,
      // As the bot's (runtime/bot-credentials.ts): a stored credential it would renew at once is
      // not reported as reusable here.
      sendMarginMs: credentialSendMarginMs(config),
      credentialTtlMs: config.venue.credentialTtlMs,
      now: systemClock.now,
      log: createLogger({ level: 'silent' }),
    });
    const { credential, registered } = await manager.ensure(
      systemTimeoutSignal(config.venue.timeoutMs * 3),
    );
    stdout.write(
      [
        `${registered ? 'registered' : 'reusing stored credentials for'} subaccount ${credential.subaccountId}`,
        `  service key: ${credential.credentials.serviceKey}`,
        `  signer:      ${credential.credentials.signerAddress}`,
        `  expires:     ${new Date(credential.expiryTs).toISOString()}`,
        `  stored in:   ${paths.credentials} (mode 0600; the secret is never printed)`,
        '',
      ].join('\n'),
    );
    if (venue.embedded !== undefined) {
      stdout.write(
        'note: this config uses the embedded paper venue, which forgets registrations when it stops.\n',
      );
    }
    return 0;
  } finally {
    stateLock?.release();
    await venue.embedded?.close();
  }
}
