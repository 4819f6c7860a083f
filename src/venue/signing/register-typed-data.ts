import { getAddress, type Address, type Hex, type TypedDataDefinition } from 'viem';
import { ErrorCodes } from '../../errors/index.ts';
import { parseWire, registrationRequestSchema } from '../schemas/index.ts';
import type { SigningDomainConfig } from '../types.ts';
import { packSubaccountId } from './subaccount.ts';

/**
 * The Register struct of docs/conventions.md §3:
 * `Register(bytes32 subAccountId,address userAddress,address sessionKey,uint128 expiryTimeStamp,uint128 nonce,uint256 chainId)`.
 */
export const REGISTER_TYPES = {
  Register: [
    { name: 'subAccountId', type: 'bytes32' },
    { name: 'userAddress', type: 'address' },
    { name: 'sessionKey', type: 'address' },
    { name: 'expiryTimeStamp', type: 'uint128' },
    { name: 'nonce', type: 'uint128' },
    { name: 'chainId', type: 'uint256' },
  ],
} as const;

/** The viem typed-data definition both registration signatures are made over. */
export type RegisterTypedData = TypedDataDefinition<typeof REGISTER_TYPES, 'Register'> & {
  readonly domain: {
    readonly name: string;
    readonly version: string;
    readonly chainId: number;
    readonly verifyingContract: Address;
  };
  readonly message: {
    readonly subAccountId: Hex;
    readonly userAddress: Address;
    readonly sessionKey: Address;
    readonly expiryTimeStamp: bigint;
    readonly nonce: bigint;
    readonly chainId: bigint;
  };
};

/** The registration request fields that are signed (docs/trading-service-api.md §2.2 without the signatures). */
export interface RegisterFields {
  readonly subaccountId: string;
  readonly ethAddress: string;
  readonly signingKey: string;
  readonly expiryTs: number;
  readonly nonce: number;
  readonly chainId: number;
}

const registerFieldsSchema = registrationRequestSchema.pick({
  subaccountId: true,
  ethAddress: true,
  signingKey: true,
  expiryTs: true,
  nonce: true,
  chainId: true,
});

/**
 * Builds the EIP-712 typed data of a registration (docs/conventions.md §3): domain `name`/`version`
 * from `domain`, `chainId` = the request's `chainId`, `verifyingContract` =
 * `domain.registerVerifyingContract`; userAddress = ethAddress, sessionKey = signingKey,
 * expiryTimeStamp = expiryTs.
 *
 * @param fields - the signed fields; a whole registration request body will do.
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` for a malformed field,
 *   `QUANTA_INVALID_SUBACCOUNT` for a bad subaccount id.
 */
export function buildRegisterTypedData(
  fields: RegisterFields,
  domain: SigningDomainConfig,
): RegisterTypedData {
  const checked = parseWire(registerFieldsSchema, fields, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'registration request',
  });
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: checked.chainId,
      verifyingContract: domain.registerVerifyingContract,
    },
    types: REGISTER_TYPES,
    primaryType: 'Register',
    message: {
      subAccountId: packSubaccountId(checked.subaccountId),
      // Any letter case is accepted on the wire; viem insists on checksummed mixed case.
      userAddress: getAddress(checked.ethAddress),
      sessionKey: getAddress(checked.signingKey),
      expiryTimeStamp: BigInt(checked.expiryTs),
      nonce: BigInt(checked.nonce),
      chainId: BigInt(checked.chainId),
    },
  };
}
