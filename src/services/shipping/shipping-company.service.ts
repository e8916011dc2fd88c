import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../../errors.js';
import { ShippingCompany } from '../../entities/shipping-company.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { z } from '../../shared/validate.js';

/** A shipping company of the dictionary: REST publishes this schema and GraphQL's type is made from it. */
export const ShippingCompanyView = z.strictObject({ code: z.string(), name: z.string() });
export type ShippingCompanyView = z.infer<typeof ShippingCompanyView>;

/** A company code as clients send it (`sf`, `SF`: codes are lower case). */
export const companyCode = z.string().trim().toLowerCase().min(1).max(20);

/** The dictionary of shipping companies shipments and returns may name (active ones, in order). */
export async function listShippingCompanies(ctx: ServiceContext): Promise<ShippingCompanyView[]> {
  const companies = await ctx.em.find(ShippingCompany, { active: true }, { orderBy: { position: 'asc', code: 'asc' } });
  return companies.map((c) => ({ code: c.code, name: c.name }));
}

/** The name of an active company, or 422 SHIPPING_COMPANY_UNKNOWN. */
export async function activeCompanyName(em: EntityManager, code: string): Promise<string> {
  const company = await em.findOne(ShippingCompany, { code, active: true });
  if (!company) throw refused('SHIPPING_COMPANY_UNKNOWN', `No shipping company with code ${code}; see GET /api/shipping-companies`, { company_code: code });
  return company.name;
}
