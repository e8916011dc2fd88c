import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as freight from '../services/shipping/freight-template.service.js';
import { listShippingCompanies } from '../services/shipping/shipping-company.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  AssignFreightTemplateInput, AssignFreightTemplatePayload, CreateFreightTemplateInput, CreateFreightTemplatePayload, DeleteFreightTemplateInput,
  DeleteFreightTemplatePayload, FreightTemplatePage, ShippingCompany, UpdateFreightTemplateInput, UpdateFreightTemplatePayload,
} from './types/after-sale.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** The terms as the service takes them: a threshold left out is null (never free). */
const terms = <T extends CreateFreightTemplateInput>(input: T) => ({
  ...input,
  freeThreshold: input.freeThreshold ?? null,
  regions: (input.regions ?? []).map((r) => ({ ...r, freeThreshold: r.freeThreshold ?? null })),
});

@Resolver()
export class FreightResolver {
  @Allow(Permission.Public)
  @Query(() => [ShippingCompany], { description: 'Shipping companies shipments and returns may name' })
  shippingCompanies(@Ctx() { ctx }: GraphQLContext) {
    return listShippingCompanies(ctx);
  }

  @Allow(Permission.ShopCatalogManage)
  @Query(() => FreightTemplatePage, { description: "The operator's freight templates" })
  freightTemplates(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return freight.listFreightTemplates(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => CreateFreightTemplatePayload, { description: 'A freight template of the own shop' })
  createFreightTemplate(@Arg('input', () => CreateFreightTemplateInput) input: CreateFreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateFreightTemplatePayload, () => freight.createFreightTemplate(ctx, terms(input)));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => UpdateFreightTemplatePayload, { description: 'Replaces the terms and regions as a whole' })
  updateFreightTemplate(@Arg('input', () => UpdateFreightTemplateInput) input: UpdateFreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpdateFreightTemplatePayload, () => freight.updateFreightTemplate(ctx, terms(input)));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => DeleteFreightTemplatePayload, { description: 'Deletes a template no product uses' })
  deleteFreightTemplate(@Arg('input', () => DeleteFreightTemplateInput) input: DeleteFreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteFreightTemplatePayload, async () => {
      await freight.deleteFreightTemplate(ctx, { ...input });
      return input.templateId;
    });
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => AssignFreightTemplatePayload, { description: "Assigns one of the shop's templates to its product (null: ships free)" })
  assignFreightTemplate(@Arg('input', () => AssignFreightTemplateInput) input: AssignFreightTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, AssignFreightTemplatePayload, () => freight.assignFreightTemplate(ctx, { productId: input.productId, freightTemplateId: input.freightTemplateId ?? null }));
  }
}
