import { Entity, ManyToOne, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { ShopRole } from './shop-membership.entity.js';
import { InvitationLink } from './invitation-link.js';

/** An invitation to join a shop's staff with a shop role, sent by email as a one-time link (src/shared/one-time-link.ts). */
@Entity()
@Index({ name: 'member_invitation_shop_id_index', properties: ['shop', 'id'] })
@Check({ name: 'member_invitation_used_once', expression: 'accepted_at is null or revoked_at is null' })
export class MemberInvitation extends InvitationLink {
  declare [EntityName]?: 'MemberInvitation';

  @ManyToOne(() => Shop, { deleteRule: 'cascade' })
  shop!: Rel<Shop>;

  @Enum({ items: () => ShopRole })
  role!: ShopRole;
}
