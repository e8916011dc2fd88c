import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';

/**
 * A shop's freight terms: a fee for the first unit, a fee per additional unit, and an optional
 * free-shipping threshold on the shop order's amount after discount. Region rows override all three.
 */
@Entity()
@Index({ properties: ['shop', 'id'] })
@Check({ name: 'freight_template_fees_valid', expression: 'first_unit_fee >= 0 and additional_unit_fee >= 0 and (free_threshold is null or free_threshold >= 0)' })
export class FreightTemplate {
  declare [EntityName]?: 'FreightTemplate';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @Property({ length: 80 })
  name!: string;

  @Property()
  firstUnitFee!: number;

  @Property()
  additionalUnitFee!: number;

  /** Null: never free. */
  @Property({ type: 'integer', nullable: true })
  freeThreshold?: number | null;

  @OneToMany(() => FreightTemplateRegion, (r) => r.template)
  regions = new Collection<FreightTemplateRegion>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}

/** The template's terms for one region (ISO 3166-2 style code such as `CN-XZ`). */
@Entity()
@Check({ name: 'freight_template_region_fees_valid', expression: 'first_unit_fee >= 0 and additional_unit_fee >= 0 and (free_threshold is null or free_threshold >= 0)' })
export class FreightTemplateRegion {
  declare [EntityName]?: 'FreightTemplateRegion';
  [PrimaryKeyProp]?: ['template', 'region'];

  @ManyToOne(() => FreightTemplate, { primary: true, deleteRule: 'cascade' })
  template!: Rel<FreightTemplate>;

  @Property({ length: 10, primary: true })
  region!: string;

  @Property()
  firstUnitFee!: number;

  @Property()
  additionalUnitFee!: number;

  @Property({ type: 'integer', nullable: true })
  freeThreshold?: number | null;
}
