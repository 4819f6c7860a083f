/** 10^18: the scale of every x18 value. */
export const X18_SCALE = 10n ** 18n;
/** The number of fraction digits an x18 value carries. */
export const X18_DECIMALS = 18;
