/** The credentials as `GET /status` shows them (no secret: addresses and times only). */
export interface CredentialState {
  /** The newest signing key's address. */
  readonly signer: string;
  readonly expiryTs: number;
  /** Whether an order can be signed now: `signingRefusal` is undefined. */
  readonly canSign: boolean;
  /** Why no order can be signed now (see `CredentialManager.signingRefusal`); undefined: they can. */
  readonly signingRefusal: string | undefined;
  /** Keys of this subaccount the venue refused, kept so in the store. */
  readonly refusedKeys: number;
  /** When the newest key was refused: ms until a new one may be registered (0: at the next poll). */
  readonly newKeyInMs: number | undefined;
}
