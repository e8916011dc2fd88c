/**
 * A flash sale's window and items, as the shop console's form checks them and flash-sale.service.ts
 * parses them; zod and the shared rules only, so the web app imports it.
 */
import { dateTime, idParam, money, onceFieldsFit, quantity, NOT_BLANK, z } from '../../shared/input-rules.js';

const ItemInput = z
  .object({
    skuId: idParam,
    activityPrice: money,
    reservedStock: quantity,
    perCustomerLimit: z.number().int().min(1).max(1_000_000),
  })
  .strict();

const SessionFields = z
  .object({
    name: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(120),
    startsAt: dateTime,
    endsAt: dateTime,
    items: z.array(ItemInput).min(1).max(100),
  })
  .strict();

type Session = z.output<typeof SessionFields>;

const checked = <S extends z.ZodType<Session>>(schema: S) =>
  schema
    .refine((s) => s.endsAt > s.startsAt, { ...onceFieldsFit, path: ['endsAt'], message: 'must be after startsAt' })
    .refine((s) => new Set(s.items.map((i) => i.skuId)).size === s.items.length, { path: ['items'], message: 'a SKU may appear only once' });

export const SessionInput = checked(SessionFields);
export const UpdateInput = checked(SessionFields.extend({ flashSaleId: idParam }));
