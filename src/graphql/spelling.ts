/** A closed set's value as the schema spells it: the internal (REST) value upper-cased, `pending_payment` as `PENDING_PAYMENT`. */
export const enumValueName = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** A REST (snake_case) name as the schema spells it: `sku_id` as `skuId`. */
export const fieldName = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
