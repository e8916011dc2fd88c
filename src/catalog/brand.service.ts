import { validationError } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { parseInput, idParam, z } from '../shared/validate.js';
import { intArray } from '../db/sql.js';
import { lockOrderedList, toBrandView, type BrandView } from './catalog-views.js';

const BrandInput = z.strictObject({
  /** An existing brand keeps its id (and its products); without id a brand is created. */
  id: idParam.nullish(),
  name: z.string().trim().min(1).max(80),
  logoUrl: z.httpUrl().max(500).nullish(),
  /** Ignored: the position is the item's index in the submitted list. */
  position: z.unknown().optional(),
});

const ReplaceBrandsInput = z
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
  const rows = await ctx.em.execute('select id, name, logo_url, position from brand order by position, id');
  return { items: rows.map(toBrandView) };
}

/**
 * Replaces the ordered brand list as a whole, all or nothing. Items with an id update that brand,
 * items without one create a brand; brands missing from the list are deleted and their products
 * keep existing without a brand (`brand_id` becomes null through the foreign key's SET NULL rule).
 */
export async function replaceBrands(ctx: ServiceContext, input: unknown): Promise<{ items: BrandView[] }> {
  requireAdmin(ctx);
  const { items } = parseInput(ReplaceBrandsInput, input);
  return inTransaction(ctx, async (tx) => {
    await lockOrderedList(tx.em, 'brands');
    const existing = new Set((await tx.em.execute<{ id: number }[]>('select id from brand')).map((r) => r.id));
    const problems = items.flatMap((item, i) =>
      item.id != null && !existing.has(item.id) ? [{ field: `items.${i}.id`, message: `no brand ${item.id}` }] : [],
    );
    if (problems.length > 0) throw validationError(`${problems[0].field}: ${problems[0].message}`, { problems });

    const rows = items.map((item, position) => ({ id: item.id ?? null, name: item.name, logo_url: item.logoUrl ?? null, position }));
    const kept = rows.filter((r) => r.id !== null);
    await tx.em.execute('delete from brand where id <> all(?::int[])', [intArray(kept.map((r) => r.id!))]);
    if (kept.length > 0) {
      await tx.em.execute(
        `update brand b set name = x.name, logo_url = x.logo_url, position = x.position
           from jsonb_to_recordset(?::jsonb) as x(id int, name text, logo_url text, position int)
          where b.id = x.id`,
        [JSON.stringify(kept)],
      );
    }
    const created = rows.filter((r) => r.id === null);
    if (created.length > 0) {
      await tx.em.execute(
        `insert into brand (name, logo_url, position)
         select x.name, x.logo_url, x.position from jsonb_to_recordset(?::jsonb) as x(name text, logo_url text, position int)
          order by x.position`,
        [JSON.stringify(created)],
      );
    }
    return listBrands(tx);
  });
}
