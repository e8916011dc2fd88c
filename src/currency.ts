/** The platform's one base currency. Every amount in the system is an integer of its minor units. */
export const BASE_CURRENCY = { code: 'CNY', symbol: '¥', minorUnitDigits: 2 } as const;
