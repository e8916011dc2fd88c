import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as freight from '../services/shipping/freight-template.service.js';
import { listShippingCompanies } from '../services/shipping/shipping-company.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import { FreightTemplate, FreightTemplateInput, FreightTemplatePage, ProductFreightTemplate, ShippingCompany } from './types/after-sale.types.js';

const plain = (input: FreightTemplateInput) => ({
  ...input,
  freeThreshold: input.freeThreshold ?? null,
  regions: (input.regions ?? []).map((r) => ({ ...r, freeThreshold: r.freeThreshold ?? null })),
});

@Resolver()
export class FreightResolver {
  @Query(() => [ShippingCompany], { description: 'Shipping companies shipments and returns may name' })
  shippingCompanies(@Ctx() { ctx }: GraphQLContext) {
    return listShippingCompanies(ctx);
  }

  @Query(() => FreightTemplatePage, { description: "The operator's freight templates" })
  freightTemplates(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return freight.listFreightTemplates(ctx, withoutNulls(args));
  }

  @Mutation(() => FreightTemplate)
  createFreightTemplate(@Arg('input', () => FreightTemplateInput) input: FreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return freight.createFreightTemplate(ctx, plain(input));
  }

  @Mutation(() => FreightTemplate, { description: 'Replaces the terms and regions as a whole' })
  updateFreightTemplate(@Arg('id', () => Int) templateId: number, @Arg('input', () => FreightTemplateInput) input: FreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return freight.updateFreightTemplate(ctx, { ...plain(input), templateId });
  }

  @Mutation(() => Boolean, { description: 'Deletes a template no product uses' })
  async deleteFreightTemplate(@Arg('id', () => Int) templateId: number, @Ctx() { ctx }: GraphQLContext) {
    await freight.deleteFreightTemplate(ctx, { templateId });
    return true;
  }

  @Mutation(() => ProductFreightTemplate, { description: "Assigns one of the shop's templates to its product (null: ships free)" })
  assignFreightTemplate(
    @Arg('productId', () => Int) productId: number,
    @Arg('freightTemplateId', () => Int, { nullable: true }) freightTemplateId: number | null,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return freight.assignFreightTemplate(ctx, { productId, freightTemplateId: freightTemplateId ?? null });
  }
}
