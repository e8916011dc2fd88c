import { validationError } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { httpUrl, idParam, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { Brand } from '../../entities/brand.entity.js';
import { toBrandView, type BrandView } from './catalog-views.js';
import { lockOrderedList } from './ordered-list-lock.js';

const BrandInput = z.strictObject({
  /** An existing brand keeps its id (and its products); without id a brand is created. */
  id: idParam.nullish(),
  name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(80),
  logoUrl: httpUrl().nullish(),
  /** Ignored (a list as read is sent back as is): the position is the item's index in the submitted list. */
  position: z.number().int().nullish(),
});

export const ReplaceBrandsInput = z
  .strictObject({ items: z.array(BrandInput).max(500) })
  .superRefine(({ items }, issue) => {
    const ids = new Set<number>();
    const names = new Set<string>();
    items.forEach((item, i) => {
      if (item.id != null) {
        if (ids.has(item.id)) issue.addIssue({ code: 'custom', path: ['items', i, 'id'], message: 'appears twice in the list' });
        ids.add(item.id);
      }
      const name = item.name.toLowerCase();
      if (names.has(name)) issue.addIssue({ code: 'custom', path: ['items', i, 'name'], message: 'another brand in the list has this name' });
      names.add(name);
    });
  });

/** The brands, in their admin-defined order. */
export async function listBrands(ctx: ServiceContext): Promise<{ items: BrandView[] }> {
  const brands = await ctx.em.find(Brand, {}, { orderBy: { position: 'asc', id: 'asc' } });
  return { items: brands.map(toBrandView) };
}

/**
 * Replaces the ordered brand list as a whole, all or nothing. Items with an id update that brand,
 * items without one create a brand; brands missing from the list are deleted and their products
 * keep existing without a brand (`brand_id` becomes null through the foreign key's SET NULL rule).
 * Positions are the items' indexes; their unique constraint is checked at commit, so brands can
 * swap places in one flush.
 */
export async function replaceBrands(ctx: ServiceContext, input: unknown): Promise<{ items: BrandView[] }> {
  requirePlatformPermission(ctx, Permission.PlatformContentManage);
  const { items } = parseInput(ReplaceBrandsInput, input);
  return inTransaction(ctx, async ({ em }) => {
    await lockOrderedList(em, 'brands');
    const existing = new Map((await em.find(Brand, {})).map((brand) => [brand.id, brand]));
    const problems = items.flatMap((item, i) =>
      item.id != null && !existing.has(item.id) ? [{ field: `items.${i}.id`, message: `no brand ${item.id}` }] : [],
    );
    if (problems.length > 0) throw validationError(`${problems[0].field}: ${problems[0].message}`, { problems });

    const listed = items.map((item, position) => {
      const values = { name: item.name, logoUrl: item.logoUrl ?? null, position };
      const brand = item.id == null ? undefined : existing.get(item.id);
      return brand ? em.assign(brand, values) : em.create(Brand, values);
    });
    const kept = new Set(listed);
    for (const brand of existing.values()) if (!kept.has(brand)) em.remove(brand);
    await em.flush();
    return { items: listed.map(toBrandView) };
  });
}
