import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check, Unique } from '@mikro-orm/decorators/legacy';
import { ArrayType, EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/**
 * submitted -> approved | rejected (with a reason the applicant sees) | withdrawn (by the applicant).
 * Only src/services/shops/application-lifecycle.ts moves it (test/ownership.test.ts).
 */
export enum ShopApplicationStatus {
  Submitted = 'submitted',
  Approved = 'approved',
  Rejected = 'rejected',
  Withdrawn = 'withdrawn',
}

/**
 * A customer's request to open a shop, reviewed by a platform admin. Approval creates the shop and
 * records it here. One open (submitted) application per applicant, and one per slug, by partial
 * unique keys: the use case checks first for a clear answer, and a racing twin loses at the key.
 */
@Entity()
@Index({ name: 'shop_application_applicant_id_index', properties: ['applicant', 'id'] })
@Index({ name: 'shop_application_status_id_index', properties: ['status', 'id'] })
@Unique({ name: 'shop_application_one_open_per_applicant', properties: ['applicant'], where: "status = 'submitted'" })
@Unique({ name: 'shop_application_one_open_per_slug', properties: ['slug'], where: "status = 'submitted'" })
@Check({ name: 'shop_application_rejected_has_reason', expression: "(status = 'rejected') = (reject_reason is not null)" })
@Check({ name: 'shop_application_approved_has_shop', expression: "(status = 'approved') = (shop_id is not null)" })
export class ShopApplication {
  declare [EntityName]?: 'ShopApplication';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User)
  applicant!: Rel<User>;

  @Enum({ items: () => ShopApplicationStatus })
  status: ShopApplicationStatus & Opt = ShopApplicationStatus.Submitted;

  /** The registered name of the business behind the shop. */
  @Property({ length: 200 })
  legalName!: string;

  /** The name the storefront will show. */
  @Property({ length: 120 })
  shopName!: string;

  @Property({ length: 80 })
  slug!: string;

  @Property({ length: 120 })
  contactName!: string;

  @Property({ length: 40 })
  contactPhone!: string;

  @Property({ length: 254 })
  contactEmail!: string;

  /** Existing category ids the shop means to sell in (checked when applying). */
  @Property({ type: new ArrayType((i: string) => Number(i)), columnType: 'int[]' })
  categoryIds!: number[];

  /** Optional profile: with a logo, approval creates the shop's profile (a profile needs its logo). */
  @Property({ length: 500, nullable: true })
  logoUrl?: string | null;

  @Property({ length: 2000, nullable: true })
  description?: string | null;

  /** When the applicant accepted the platform terms (applying requires it). */
  @Property({ columnType: 'timestamptz' })
  termsAcceptedAt!: Date;

  @Property({ length: 500, nullable: true })
  rejectReason?: string | null;

  /** The shop approval created. */
  @ManyToOne(() => Shop, { nullable: true })
  shop?: Rel<Shop> | null;

  /** The platform admin who approved or rejected. */
  @ManyToOne(() => User, { nullable: true })
  decidedBy?: Rel<User> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  withdrawnAt?: Date | null;
}
