import { z } from '../../shared/validate.js';
import { id, money, timestamp } from '../../shared/view-fields.js';
import { regionCode } from './regions.js';

/**
 * The freight templates' views: REST publishes these schemas. GraphQL's FreightTemplate and FreightRegion
 * stay written in resolvers/types (their fields come in another order there: made from these schemas,
 * one door's document would change), held to these schemas by test/one-description.test.ts; its
 * ProductFreightTemplate is made from FreightAssignmentView.
 */

const freightTerms = { firstUnitFee: money, additionalUnitFee: money, freeThreshold: money.nullable() };

export const FreightRegionView = z.strictObject({
  ...freightTerms,
  freeThreshold: freightTerms.freeThreshold.describe('Null: never free in this region'),
  region: regionCode,
});
export type FreightRegionView = z.infer<typeof FreightRegionView>;

export const FreightTemplateView = z.strictObject({
  ...freightTerms,
  freeThreshold: freightTerms.freeThreshold.describe('Free shipping when the shop order amount after discount reaches it; null: never'),
  id,
  shopId: id,
  name: z.string(),
  regions: z.array(FreightRegionView).describe('Overrides of all three terms for a region'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type FreightTemplateView = z.infer<typeof FreightTemplateView>;

/** A product's template, as assigning it answers. */
export const FreightAssignmentView = z.strictObject({ productId: id, freightTemplateId: id.nullable().describe('Null: the product ships free') });
export type FreightAssignmentView = z.infer<typeof FreightAssignmentView>;
