/**
 * A region as its ISO 3166-2:CN code reads (`CN-SH`): the schema's `RegionCode` enum spells it
 * `CN_SH`. No GraphQL document here, so the consoles can use it without the storefront's documents.
 */
export const regionLabel = (code: string) => code.replace('_', '-');
