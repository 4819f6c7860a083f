export {
  SUBACCOUNT_PART_LIMIT,
  formatSubaccountId,
  parseSubaccountId,
  packSubaccountId,
  type SubaccountParts,
  type SubaccountInput,
} from './subaccount.ts';
export {
  accountFromPrivateKey,
  addressOfPrivateKey,
  generateSigningKey,
  signTypedDataWith,
} from './private-key.ts';
export { isCanonicalSignature, recoverTypedDataSigner } from './recover-signer.ts';
export {
  REGISTER_TYPES,
  buildRegisterTypedData,
  type RegisterFields,
  type RegisterTypedData,
} from './register-typed-data.ts';
export {
  ORDER_TYPES,
  buildOrderTypedData,
  type OrderSigningInput,
  type OrderTypedData,
} from './order-typed-data.ts';
export {
  signRegistration,
  verifyRegistration,
  type SignRegistrationParams,
  type RegistrationRejection,
  type RegistrationVerification,
  type VerifyRegistrationOptions,
} from './sign-registration.ts';
export { orderDigest, orderDomainSeparator, orderStructHash } from './order-digest.ts';
export { orderSigningKey, type OrderSigningKey } from './order-signing-key.ts';
export {
  signOrder,
  verifyOrderSignature,
  type SignOrderParams,
  type SignedOrder,
  type VerifyOrderParams,
} from './sign-order.ts';
