import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as media from '../services/media/media.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';
import { MediaAssetPage, UploadPlatformMediaInput, UploadPlatformMediaPayload, UploadShopMediaInput, UploadShopMediaPayload } from './types/media.types.js';
import { PageArgs } from './types/page.types.js';
import { withoutNulls } from './without-nulls.js';

const upload = (input: UploadShopMediaInput | UploadPlatformMediaInput) => ({ bytes: input.file.bytes, filename: input.filename ?? input.file.filename });

/** The twins of `/api/merchant/media` and `/api/admin/media`. */
@Resolver()
export class MediaResolver {
  @Allow(Permission.ShopCatalogManage)
  @Query(() => MediaAssetPage, { description: "The acting shop's pictures, newest first" })
  shopMedia(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return media.listShopMedia(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformContentManage)
  @Query(() => MediaAssetPage, { description: "The platform's pictures, newest first" })
  platformMedia(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return media.listPlatformMedia(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => UploadShopMediaPayload, { description: 'Upload a picture for the acting shop: its `url` goes into a product\'s image field' })
  uploadShopMedia(@Arg('input', () => UploadShopMediaInput) input: UploadShopMediaInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UploadShopMediaPayload, () => media.uploadShopMedia(ctx, upload(input)));
  }

  @Allow(Permission.PlatformContentManage)
  @Mutation(() => UploadPlatformMediaPayload, { description: 'Upload a picture of the platform (shop logos and banners, brands, home content)' })
  uploadPlatformMedia(@Arg('input', () => UploadPlatformMediaInput) input: UploadPlatformMediaInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UploadPlatformMediaPayload, () => media.uploadPlatformMedia(ctx, upload(input)));
  }
}
